import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rsaDkimKeys } from '../../../fixtures/dkim-keys.js';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import { freePort } from '../../../fixtures/free-port.js';
import {
  issueCertificate,
  type Listening,
  servePolicy,
  startPolicyServer,
  startSmtpServer,
} from '../../../fixtures/mail-world.js';
import {
  expectError,
  postError,
  startTestService,
  type TestService,
} from '../../support/service.js';

/**
 * The mail tool over real HTTP against the real app (docs/mail.md, "The API"): POST /mail/v1, the
 * result behind its token, the cache per domain and selector set, bad requests, the status with
 * the SMTP probe's state, the OpenAPI document. The MX host is a real SMTP server with STARTTLS on
 * 127.0.0.2 and the MTA-STS policy a real HTTPS server on 127.0.0.3, on certificates of the run's
 * test CA, reached because PROBE_ALLOW_NETWORKS allows 127.0.0.0/8; the DNS is the fixture world.
 */

const ca = inject('mailCa');
const rsa2048 = rsaDkimKeys[2048];
const servers: Listening[] = [];
let service: TestService;
let closedPortService: TestService;
let sessions: () => number;
let policyRequests: () => string[];

const zones: FixtureZone[] = [
  {
    origin: 'net',
    records: {
      'solid.net': {
        TXT: ['v=spf1 ip4:192.0.3.10 -all'],
        MX: [{ exchange: 'mx.solid.net', priority: 10 }],
      },
      'mx.solid.net': { A: ['127.0.0.2'] },
      '_dmarc.solid.net': { TXT: ['v=DMARC1; p=quarantine'] },
      's2024._domainkey.solid.net': { TXT: [`v=DKIM1; p=${rsa2048}`] },
      '_mta-sts.solid.net': { TXT: ['v=STSv1; id=1'] },
      'mta-sts.solid.net': { A: ['127.0.0.3'] },
      '_smtp._tls.solid.net': { TXT: ['v=TLSRPTv1; rua=mailto:tls@solid.net'] },
      'default._bimi.solid.net': { TXT: ['v=BIMI1; l=https://solid.net/logo.svg'] },
    },
  },
];

async function mailService(smtpPort: number, httpsPort: number): Promise<TestService> {
  return startTestService({
    zones,
    asOperator: true,
    env: {
      PROBE_ALLOW_NETWORKS: '127.0.0.0/8',
      PROBE_SMTP_PORT: String(smtpPort),
      PROBE_HTTPS_PORT: String(httpsPort),
      SMTP_TIMEOUT_MS: '1000',
      CHECK_DEADLINE_MS: '3000',
      DAILY_LIMIT: '50',
    },
  });
}

beforeAll(async () => {
  const [smtpPort, httpsPort] = [await freePort(), await freePort()];
  const [mxCertificate, policyCertificate] = await Promise.all([
    issueCertificate(ca, ['mx.solid.net']),
    issueCertificate(ca, ['mta-sts.solid.net']),
  ]);
  const smtp = await startSmtpServer({ host: '127.0.0.2', port: smtpPort, tls: mxCertificate });
  sessions = smtp.sessions;
  const policyServer = await startPolicyServer({
    host: '127.0.0.3',
    port: httpsPort,
    tls: policyCertificate,
    handler: servePolicy(
      'version: STSv1\r\nmode: enforce\r\nmx: mx.solid.net\r\nmax_age: 86400\r\n',
    ),
  });
  policyRequests = policyServer.requests;
  servers.push(smtp, policyServer);
  service = await mailService(smtpPort, httpsPort);
  // Nothing listens on this port: every probe fails at the connection stage.
  closedPortService = await mailService(await freePort(), httpsPort);
});

afterAll(async () => {
  await service?.close();
  await closedPortService?.close();
  await Promise.all(servers.map((server) => server.close()));
});

type Answer = Record<string, unknown> & {
  token: string;
  from_cache: boolean;
  mx: Array<{ host: string; smtp: Record<string, unknown> }>;
  dkim: { tried: string[]; selectors: Array<Record<string, unknown>> };
};

describe('POST /mail/v1', () => {
  it('answers every field of the result, probing the MX host over STARTTLS and fetching the MTA-STS policy', async () => {
    const before = sessions();
    const response = await service.post('/mail/v1', {
      domain: 'solid.net',
      dkim_selectors: ['s2024'],
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as Answer;
    expect(Object.keys(answer)).toEqual(
      expect.arrayContaining([
        ...['domain', 'token', 'from_cache', 'checked_at', 'spf', 'dkim', 'dmarc', 'bimi', 'mx'],
        ...['mta_sts', 'tls_rpt', 'dane', 'requirements', 'mail_score'],
        ...['configured', 'dailyLimit', 'dailyRemaining', 'captchaRequired'],
      ]),
    );
    expect(answer).toMatchObject({
      domain: 'solid.net',
      from_cache: false,
      spf: { status: 'found' },
      dmarc: { p: 'quarantine' },
      mta_sts: { status: 'enforce', mx_covered: true },
      tls_rpt: { status: 'found', rua: ['mailto:tls@solid.net'] },
      bimi: { status: 'found' },
      dailyLimit: 50,
    });
    expect(answer.token).toMatch(/^[A-Za-z0-9_-]{8,}$/);
    expect(answer.mx).toEqual([
      expect.objectContaining({
        host: 'mx.solid.net',
        smtp: expect.objectContaining({
          status: 'ok',
          starttls: true,
          certificate: expect.objectContaining({ trusted: true, name_matches: true }),
        }),
      }),
    ]);
    expect(sessions()).toBe(before + 1);
    expect(answer.dkim.tried[0]).toBe('s2024');
    expect(answer.dkim.selectors[0]).toMatchObject({
      selector: 's2024',
      status: 'found',
      key_type: 'rsa',
      key_bits: 2048,
    });
    for (const provider of ['gmail', 'yahoo', 'microsoft']) {
      expect((answer.requirements as Record<string, unknown>)[provider]).toMatchObject({
        verdict: expect.stringMatching(/^(pass|warn|fail)$/),
      });
    }

    // The stored result behind its token, without the quota fields.
    const stored = await service.get(`/mail/v1/${answer.token}`);
    expect(stored.status).toBe(200);
    const body = (await stored.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      token: answer.token,
      domain: 'solid.net',
      checked_at: answer.checked_at,
    });
    expect(body).not.toHaveProperty('dailyRemaining');
    expect(body).not.toHaveProperty('from_cache');

    // Its badge, card and share page.
    expect(
      (await service.get(`/mail/v1/share/${answer.token}/badge.svg`)).headers.get('content-type'),
    ).toMatch(/^image\/svg\+xml/);
    expect(
      (await service.get(`/mail/v1/share/${answer.token}`, { accept: 'text/html' })).status,
    ).toBe(200);
  });

  it('probes nothing in PROBE_ALLOW_NETWORKS for a caller without OPERATOR_TOKEN, and serves it no operator’s result', async () => {
    // The operator's check first: its result (banner, certificate names) is in the result cache.
    const operators = (await (
      await service.post('/mail/v1', { domain: 'solid.net', dkim_selectors: ['anon1'] })
    ).json()) as Answer;
    expect(operators.mx[0]!.smtp).toMatchObject({ status: 'ok' });
    const [smtpBefore, policyBefore] = [sessions(), policyRequests().length];
    for (const authorization of ['', 'Bearer not-the-operator-token']) {
      const response = await service.post(
        '/mail/v1',
        { domain: 'solid.net', dkim_selectors: ['anon1'] },
        { authorization },
      );
      expect(response.status).toBe(200);
      const text = await response.text();
      const answer = JSON.parse(text) as Answer & { mta_sts: Record<string, unknown> };
      // The two anonymous requests share a result; neither is the operator's.
      expect(answer.token).not.toBe(operators.token);
      expect(answer.mx[0]!.smtp).toMatchObject({
        status: 'not_probed',
        banner: null,
        certificate: null,
        detail: expect.stringContaining('not a public address'),
      });
      expect(answer.mta_sts).toMatchObject({
        status: 'error',
        policy: null,
        detail: expect.stringContaining('not a public address'),
      });
      // Nothing the inside servers said: no banner, no certificate, no TLS error.
      for (const inside of ['ESMTP', 'TLSv1', 'subject_names', 'mode: enforce'])
        expect(text).not.toContain(inside);
    }
    expect(sessions()).toBe(smtpBefore);
    expect(policyRequests()).toHaveLength(policyBefore);
  });

  it('answers from the cache per domain and selector set, whatever their order and the alias', async () => {
    const before = sessions();
    const first = (await (
      await service.post('/mail/v1', { target: 'solid.net', dkim_selectors: ['b1', 'a1'] })
    ).json()) as Answer;
    const again = (await (
      await service.post('/mail/v1', { domain: 'SOLID.net', dkim_selectors: ['A1', 'b1'] })
    ).json()) as Answer;
    const other = (await (
      await service.post('/mail/v1', { domain: 'solid.net', dkim_selectors: ['a1'] })
    ).json()) as Answer;
    expect(first.from_cache).toBe(false);
    expect(again).toMatchObject({ from_cache: true, token: first.token });
    expect(other.from_cache).toBe(false);
    expect(other.token).not.toBe(first.token);
    // The MX probe is kept apart from the DNS part: other selectors re-probe nothing.
    expect(sessions()).toBe(before);
    expect(other.mx[0]!.smtp).toMatchObject({ status: 'ok' });
  });

  it.each([
    ['no domain', {}, 'invalid_request', /domain is required/],
    [
      'an IP address',
      { domain: '192.0.2.1' },
      'invalid_target',
      /^192\.0\.2\.1 is an IP address, not a domain name: the IP tool checks 192\.0\.2\.1 \(POST \/ip\/v1\)$/,
    ],
    [
      'eleven selectors',
      { domain: 'solid.net', dkim_selectors: Array.from({ length: 11 }, (_, i) => `s${i}`) },
      'invalid_request',
      /dkim_selectors/,
    ],
    [
      'a bad selector',
      { domain: 'solid.net', dkim_selectors: ['bad name!'] },
      'invalid_request',
      /dkim_selectors\.0/,
    ],
    [
      'selectors not a list',
      { domain: 'solid.net', dkim_selectors: 's1' },
      'invalid_request',
      /dkim_selectors/,
    ],
  ])('refuses %s with a 400 JSON error', async (_what, body, code, message) => {
    await expectError(
      await service.post('/mail/v1', body),
      400,
      postError(code, expect.stringMatching(message)),
    );
  });
});

describe('GET /mail/v1/status', () => {
  it('shows the quota and whether and when the probe connected, not where', async () => {
    await service.post('/mail/v1', { domain: 'solid.net' });
    const response = await service.get('/mail/v1/status');
    expect(response.status).toBe(200);
    const text = await response.text();
    const status = JSON.parse(text) as { smtp_probe: { last_connect_outcome: object } };
    expect(status).toMatchObject({
      configured: true,
      dailyLimit: 50,
      smtp_probe: { available: true, reason: null },
    });
    // Anyone may read the status: the last MX host, its address and its replies are the caller's.
    expect(status.smtp_probe.last_connect_outcome).toEqual({
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      outcome: 'connected',
    });
    for (const secret of ['solid.net', '127.0.0.2', 'ESMTP']) expect(text).not.toContain(secret);
  });

  it('says port 25 may be blocked when the last probe could not connect', async () => {
    const before = (await (await closedPortService.get('/mail/v1/status')).json()) as {
      smtp_probe: unknown;
    };
    expect(before.smtp_probe).toEqual({
      available: true,
      reason: null,
      last_connect_outcome: null,
    });
    const answer = (await (
      await closedPortService.post('/mail/v1', { domain: 'solid.net' })
    ).json()) as Answer & {
      notes: string[];
    };
    expect(answer.mx[0]!.smtp).toMatchObject({ status: 'refused', stage: 'connect' });
    expect(answer.notes).toContainEqual(expect.stringContaining('port 25 may be blocked'));
    const after = (await (await closedPortService.get('/mail/v1/status')).json()) as Record<
      string,
      unknown
    >;
    expect(after.smtp_probe).toMatchObject({
      available: true,
      reason: expect.stringContaining('port 25 may be blocked'),
      last_connect_outcome: { outcome: 'failed', at: expect.any(String) },
    });
  });
});

describe('the OpenAPI document', () => {
  it('documents the mail routes', async () => {
    const document = (await (await service.get('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const ids = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/mail/v1'))
      .flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([method]) => method !== 'head')
          .map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`),
      );
    expect(ids.sort()).toEqual(
      [
        'GET /mail/v1/status getMailStatus',
        'POST /mail/v1 checkMail',
        'GET /mail/v1/{token} getMailResult',
        'GET /mail/v1/share/{token} getMailSharePage',
        'GET /mail/v1/share/{token}/badge.svg getMailBadge',
        'GET /mail/v1/share/{token}/card getMailCard',
      ].sort(),
    );
  });
});
