import type { IncomingMessage, ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rsaDkimKeys } from '../../../fixtures/dkim-keys.js';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import { freePort } from '../../../fixtures/free-port.js';
import {
  issueCertificate,
  type Listening,
  startPolicyServer,
  type SmtpWorldServer,
  startSmtpServer,
} from '../../../fixtures/mail-world.js';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import { loadZoneList } from '../../../src/reputation/lists/zones.js';
import {
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../fixtures/webhook-receiver.js';
import type { PublicWatch } from '../../support/responses.js';
import {
  expectError,
  postError,
  startTestService,
  type TestService,
} from '../../support/service.js';
import type { WatchEvent } from '../../../src/watch/index.js';
import { type CreatedWatch, createWatch, send } from './support.js';
import { drawn } from '../../support/chat-apps.js';

/**
 * Mail watches over real HTTP (docs/watches.md, "Mail watches"): watches of kind mail created on
 * the real app, re-checked by the service's own timer every second over the fixture DNS world
 * (in memory: the DNS is not what they are about), against the mail world on 127.0.0.0/8: SMTP
 * servers with STARTTLS on certificates of the run's test CA, an HTTPS server for MTA-STS
 * policies. Each watch's domain changes one thing (a DKIM key removed, an MX certificate
 * re-issued with 10 days left, the MTA-STS mode, an MX server that stops greeting), and a real
 * receiver gets the signed `watch.changed` event, or nothing for the timeout.
 */

const ca = inject('mailCa');
const operatorToken = 'operator-token-of-the-mail-watch-tests';
const operator = { authorization: `Bearer ${operatorToken}` };
const dayMs = 86_400_000;
const rsa2048 = rsaDkimKeys[2048];

/** Each domain's MTA-STS mode, served by the policy host as the test sets it. */
const stsMode = new Map<string, string>([['mta-sts.policy.net', 'testing']]);

function domain(name: string, mx: string, extra: Record<string, object> = {}) {
  return {
    [name]: { TXT: ['v=spf1 -all'], MX: [{ exchange: mx, priority: 10 }] },
    [`_dmarc.${name}`]: { TXT: ['v=DMARC1; p=reject'] },
    ...extra,
  };
}

const keyRecord = { TXT: [`v=DKIM1; p=${rsa2048}`] };
const records = {
  ...domain('keys.net', 'mx.keys.net', { 's2024._domainkey.keys.net': keyRecord }),
  'mx.keys.net': { A: ['127.0.0.2'] },
  ...domain('certs.net', 'mx.certs.net'),
  'mx.certs.net': { A: ['127.0.0.4'] },
  ...domain('policy.net', 'mx.keys.net', {
    '_mta-sts.policy.net': { TXT: ['v=STSv1; id=1'] },
    'mta-sts.policy.net': { A: ['127.0.0.3'] },
  }),
  // Two MX hosts: while one stops greeting, the other still answers, so the tls rule would read
  // "STARTTLS on 1 of 2" (a warning) if a timeout counted as an answer.
  'slow.net': {
    TXT: ['v=spf1 -all'],
    MX: [
      { exchange: 'mx.slow.net', priority: 10 },
      { exchange: 'mx.keys.net', priority: 20 },
    ],
  },
  '_dmarc.slow.net': { TXT: ['v=DMARC1; p=reject'] },
  'mx.slow.net': { A: ['127.0.0.5'] },
};
// Every world keeps the lists' zones: the resolver confirmation beside a check asks a list's test
// entry, and a world without it reads as a resolver that lies (503 not_configured).
const lists = dnsblWorld(await loadZoneList(), {});
const world = (without: string[] = []): FixtureZone[] => [
  ...lists,
  {
    origin: 'net',
    records: Object.fromEntries(
      Object.entries(records).filter(([name]) => !without.includes(name)),
    ),
  },
];

const servers: Listening[] = [];
let smtpPort: number;
let service: TestService;
let receiver: WebhookReceiver;
const secrets = new Map<string, string>();

const receivedAt = (path: string) => receiver.received.filter((request) => request.path === path);
const verified = (path: string, request: ReceivedWebhook) =>
  new Webhook(secrets.get(path)!).verify(request.body, request.headers) as WatchEvent;

async function mx(host: string, address: string): Promise<SmtpWorldServer> {
  const tls = await issueCertificate(ca, [host]);
  const server = await startSmtpServer({ host: address, port: smtpPort, tls });
  servers.push(server);
  return server;
}

async function watchMail(path: string, target: string, extra: object = {}): Promise<CreatedWatch> {
  const watch = await createWatch(
    service,
    {
      target,
      kind: 'mail',
      interval_s: 1,
      webhook_url: receiver.url(path),
      confirmations: 1,
      ...extra,
    },
    operator,
  );
  secrets.set(path, watch.webhook_secret!);
  return watch;
}

async function view(id: string): Promise<PublicWatch> {
  return (await (await service.get(`/watch/v1/${id}`)).json()) as PublicWatch;
}

/** Waits until the watch has been checked `n` more times. */
async function checksPass(id: string, n: number) {
  const seen = new Set<string>();
  await expect
    .poll(
      async () => {
        seen.add((await view(id)).checked_at ?? '');
        return seen.size;
      },
      { timeout: 20_000, interval: 100 },
    )
    .toBeGreaterThan(n);
}

let certsMx: SmtpWorldServer;
let slowMx: SmtpWorldServer;

beforeAll(async () => {
  smtpPort = await freePort();
  const httpsPort = await freePort();
  receiver = await startWebhookReceiver();
  await mx('mx.keys.net', '127.0.0.2');
  certsMx = await mx('mx.certs.net', '127.0.0.4');
  slowMx = await mx('mx.slow.net', '127.0.0.5');
  servers.push(
    await startPolicyServer({
      host: '127.0.0.3',
      port: httpsPort,
      tls: await issueCertificate(ca, ['mta-sts.policy.net']),
      handler: (request: IncomingMessage, response: ServerResponse) => {
        // The Host header names the port too (PROBE_HTTPS_PORT is no 443 here).
        const host = (request.headers.host ?? '').replace(/:\d+$/, '');
        const mode = stsMode.get(host) ?? 'none';
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(`version: STSv1\r\nmode: ${mode}\r\nmx: mx.keys.net\r\nmax_age: 86400\r\n`);
      },
    }),
  );
  service = await startTestService({
    world: world(),
    env: {
      PROBE_ALLOW_NETWORKS: '127.0.0.0/8',
      PROBE_SMTP_PORT: String(smtpPort),
      PROBE_HTTPS_PORT: String(httpsPort),
      SMTP_TIMEOUT_MS: '1000',
      CHECK_DEADLINE_MS: '3000',
      DNS_TIMEOUT_MS: '1000',
      DAILY_LIMIT: '100',
      WATCH_MIN_INTERVAL_S: '1',
      WATCH_PER_CALLER: '50',
      WATCH_PER_NETWORK: '50',
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      OPERATOR_TOKEN: operatorToken,
      WEBHOOK_TIMEOUT_MS: '3000',
    },
  });
}, 60_000);

afterAll(async () => {
  await service?.close();
  await receiver?.close();
  await Promise.all(servers.map((server) => server.close()));
});

describe('POST /watch/v1 with kind mail', () => {
  it('checks the domain as the mail tool does and shows the providers, the DKIM keys found and the MTA-STS status', async () => {
    const remaining = async () =>
      ((await (await service.get('/mail/v1/status')).json()) as { dailyRemaining: number })
        .dailyRemaining;
    const before = await remaining();
    const watch = await watchMail('/first', 'keys.net', { dkim_selectors: ['S2024'] });
    // Its first check is a unit of the mail tool's quota.
    expect(await remaining()).toBe(before - 1);
    expect(watch).toMatchObject({ dailyLimit: 100, dailyRemaining: before - 1 });
    expect(watch).toMatchObject({
      kind: 'mail',
      target: 'keys.net',
      dkim_selectors: ['s2024'],
      status: {
        mail: {
          providers: {
            gmail: expect.stringMatching(/^(pass|warn|fail)$/),
            yahoo: expect.any(String),
            microsoft: expect.any(String),
          },
          dkim_selectors: ['s2024'],
          mta_sts: 'none',
        },
        listed_on: [],
      },
      history: [],
    });
    const page = await service.get(`/watch/v1/${watch.id}/share`, { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Gmail');
    const badge = await service.get(`/watch/v1/${watch.id}/badge.svg`);
    expect(await badge.text()).toMatch(/gmail/i);

    // A PATCH changes a mail watch as any other, and keeps its kind and selectors.
    const patched = await send(service, 'PATCH', `/watch/v1/${watch.id}`, {
      body: { interval_s: 2, lang: 'ru' },
      key: watch.manage_key,
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      kind: 'mail',
      interval_s: 2,
      lang: 'ru',
      dkim_selectors: ['s2024'],
    });
    const ru = await service.get(`/watch/v1/${watch.id}/share?lang=ru`, { accept: 'text/html' });
    expect(await ru.text()).toContain('Требования почтовых провайдеров');
  });

  it('probes nothing in PROBE_ALLOW_NETWORKS for a watch created without OPERATOR_TOKEN', async () => {
    const before = certsMx.sessions();
    const response = await service.post('/watch/v1', {
      target: 'certs.net',
      kind: 'mail',
      interval_s: 1,
    });
    expect(response.status).toBe(201);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ kind: 'mail', target: 'certs.net' });
    // Its check connected nowhere inside: no session, nothing the server said.
    expect(certsMx.sessions()).toBe(before);
    for (const inside of ['ESMTP', 'TLSv1', 'certs.net CN']) expect(text).not.toContain(inside);
  });

  it.each([
    ['dkim_selectors on an ip watch', { target: '8.8.100.9', dkim_selectors: ['s1'] }],
    ['a selector that is none', { target: 'keys.net', kind: 'mail', dkim_selectors: ['a b'] }],
    [
      'eleven selectors',
      {
        target: 'keys.net',
        kind: 'mail',
        dkim_selectors: Array.from({ length: 11 }, (_, i) => `s${i}`),
      },
    ],
  ])('refuses %s with 400 invalid_request', async (_name, body) => {
    await expectError(await service.post('/watch/v1', body), 400, postError('invalid_request'));
  });

  it('documents the mail watch in the OpenAPI document: the kind, the selectors, the event’s changes', async () => {
    const document = (await (await service.get('/openapi.json')).json()) as {
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
      webhooks: Record<string, unknown>;
    };
    expect(document.webhooks).toHaveProperty(['watch.changed']);
    expect(Object.keys(document.components.schemas.WatchMailChange!.properties!)).toEqual([
      'what',
      'subject',
      'from',
      'to',
      'detail',
    ]);
    expect(document.components.schemas.WatchCreateRequest!.properties).toHaveProperty(
      'dkim_selectors',
    );
  });

  it('refuses an address as a mail watch’s target with 400 invalid_target', async () => {
    const response = await service.post('/watch/v1', { target: '192.0.2.1', kind: 'mail' });
    await expectError(response, 400, postError('invalid_target'));
  });
});

describe('a mail watch', () => {
  it('delivers a signed watch.changed naming the selector when its DKIM key record is removed', async () => {
    const watch = await watchMail('/dkim', 'keys.net', { dkim_selectors: ['s2024'] });
    await checksPass(watch.id, 1);
    expect(receivedAt('/dkim')).toEqual([]);
    await service.setZones(world(['s2024._domainkey.keys.net']));
    await expect
      .poll(() => receivedAt('/dkim').length, { timeout: 20_000, interval: 100 })
      .toBeGreaterThan(0);
    const event = verified('/dkim', receivedAt('/dkim')[0]!);
    expect(event.type).toBe('watch.changed');
    expect(event.data.changes).toContainEqual({
      what: 'dkim',
      subject: 's2024',
      from: 'found',
      to: 'none',
      detail: null,
    });
    // The requirement it breaks is a change of its own.
    expect(event.data.changes).toContainEqual(
      expect.objectContaining({ what: 'requirement', subject: 'dkim', from: 'ready' }),
    );
    expect(event.data.watch).toMatchObject({ kind: 'mail', target: 'keys.net' });
    expect(event.data.watch.page_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*\/share$/);
    expect(event.data.providers).toBeDefined();
    const after = await view(watch.id);
    expect(after.history[0]!.changes).toEqual(event.data.changes);
    expect(after.status?.mail?.dkim_selectors).toEqual([]);
    await service.setZones(world());
  });

  it('delivers watch.changed when an MX certificate is re-issued with 10 days left', async () => {
    const watch = await watchMail('/cert', 'certs.net');
    await checksPass(watch.id, 1);
    // Re-issued where it stands: closed, then restarted, it would be refused for a moment.
    certsMx.useCertificate(
      await issueCertificate(ca, ['mx.certs.net'], { notAfter: new Date(Date.now() + 10 * dayMs) }),
    );
    await expect
      .poll(() => receivedAt('/cert').length, { timeout: 20_000, interval: 100 })
      .toBeGreaterThan(0);
    const event = verified('/cert', receivedAt('/cert')[0]!);
    expect(event.type).toBe('watch.changed');
    expect(event.data.changes).toEqual([
      expect.objectContaining({
        what: 'certificate',
        subject: 'mx.certs.net',
        from: 'valid',
        to: 'expiring',
        detail: expect.stringMatching(/^(9|10) days left/),
      }),
    ]);
  });

  it('delivers watch.changed when the MTA-STS mode goes from testing to enforce, confirmed by two checks', async () => {
    const watch = await watchMail('/sts', 'policy.net', { confirmations: 2 });
    expect(watch.status?.mail?.mta_sts).toBe('testing');
    // The same change in chat formats, in each language.
    const slack = await watchMail('/sts-slack', 'policy.net', {
      confirmations: 2,
      webhook_format: 'slack',
      lang: 'ru',
    });
    await watchMail('/sts-discord', 'policy.net', { confirmations: 2, webhook_format: 'discord' });
    await checksPass(watch.id, 1);
    await checksPass(slack.id, 1);
    stsMode.set('mta-sts.policy.net', 'enforce');
    await expect
      .poll(() => receivedAt('/sts').length, { timeout: 20_000, interval: 100 })
      .toBeGreaterThan(0);
    const event = verified('/sts', receivedAt('/sts')[0]!);
    expect(event.data.changes).toEqual([
      { what: 'mta_sts', subject: 'policy.net', from: 'testing', to: 'enforce', detail: null },
    ]);
    expect((await view(watch.id)).status?.mail?.mta_sts).toBe('enforce');

    await expect
      .poll(() => receivedAt('/sts-slack').length + receivedAt('/sts-discord').length, {
        timeout: 20_000,
        interval: 100,
      })
      .toBe(2);
    const slackRequest = receivedAt('/sts-slack')[0]!;
    // Signed as every delivery, over the bytes sent.
    verified('/sts-slack', slackRequest);
    const ru = drawn('slack', slackRequest);
    expect(ru.title).toBe('Изменилась настройка почты policy.net');
    expect(ru.text).toContain('MTA-STS: testing (проверка) → enforce (обязательно)');
    expect(ru.text).toMatch(/Провайдеры сейчас\nGmail: /);
    expect(ru.text).not.toContain('Сейчас в списках');
    const en = drawn('discord', receivedAt('/sts-discord')[0]!);
    expect(en.title).toBe('The mail setup of policy.net changed');
    expect(en.text).toContain('What changed:');
    expect(en.text).toContain('MTA-STS: testing → enforce');
    expect(en.text).toMatch(/Providers now\nGmail: (met|not met|met with warnings)/);
    expect(en.text).not.toContain('Listed now');
  });

  it('reports nothing while its MX server accepts and never greets (a probe timeout keeps what was known)', async () => {
    const watch = await watchMail('/slow', 'slow.net');
    await checksPass(watch.id, 1);
    // The server stops greeting where it stands: closed, then replaced, it would be refused for
    // a moment, and a refusal is an answer (no STARTTLS there), which a check may come to see.
    slowMx.stopGreeting();
    await checksPass(watch.id, 3);
    expect(receivedAt('/slow')).toEqual([]);
    const after = await view(watch.id);
    expect(after.history).toEqual([]);
    expect(after.status?.mail).toEqual(watch.status?.mail);
  }, 30_000);
});
