import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Resolver } from '../../../src/dns/index.js';
import { createResolver } from '../../../src/node/dns/index.js';
import dnsPacket from 'dns-packet';
import {
  createPolicyFetcher,
  createSmtpProber,
  createTlsaLookup,
} from '../../../src/node/probes/index.js';
import { startScriptedDnsServer } from '../../../fixtures/scripted-dns-server.js';
import { createDnsblEngine } from '../../../src/reputation/lists/dnsbl.js';
import { checkMail, type MailCheckDeps } from '../../../src/reputation/mail/index.js';
import {
  type MailCheckResult,
  mailCheckResultSchema,
} from '../../../src/reputation/results/index.js';
import { isPublicIpv4, isPublicIpv6 } from '../../../src/lib/index.js';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import { type FixtureDnsServer, startFixtureDnsServer } from '../../../fixtures/dns-server.js';
import { freePort } from '../../../fixtures/free-port.js';
import { keylessZoneList } from '../../../fixtures/keyless-lists.js';
import {
  issueCertificate,
  type Listening,
  servePolicy,
  startPolicyServer,
  startSmtpServer,
  startTarpit,
} from '../../../fixtures/mail-world.js';

/**
 * The mail check over the wire: the fixture DNS server, real SMTP servers on 127.0.0.2-4 (one with
 * STARTTLS on a certificate of the run's test CA, one without, a tarpit) on one PROBE_SMTP_PORT,
 * and the MTA-STS policy over HTTPS on 127.0.0.5, reached because the test allows 127.0.0.0/8 as
 * PROBE_ALLOW_NETWORKS would.
 */

const ca = inject('mailCa');
const zones = await keylessZoneList();
const smtpTimeoutMs = 1000;
const servers: Listening[] = [];
let dns: FixtureDnsServer;
let smtpPort: number;
let httpsPort: number;
let sessionsAtGood: () => number;

const ed25519 = '11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=';
const rsa2048 = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64');
const policy =
  'version: STSv1\r\nmode: enforce\r\nmx: *.good.net\r\nmx: mx.solid.net\r\nmax_age: 604800\r\n';

beforeAll(async () => {
  smtpPort = await freePort();
  httpsPort = await freePort();
  const [mxCertificate, policyCertificate] = await Promise.all([
    issueCertificate(ca, ['mx1.good.net', 'mx.solid.net']),
    issueCertificate(ca, ['mta-sts.good.net', 'mta-sts.solid.net']),
  ]);
  const good = await startSmtpServer({ host: '127.0.0.2', port: smtpPort, tls: mxCertificate });
  sessionsAtGood = good.sessions;
  servers.push(
    good,
    await startSmtpServer({ host: '127.0.0.3', port: smtpPort }),
    await startTarpit({ host: '127.0.0.4', port: smtpPort }),
    await startPolicyServer({
      host: '127.0.0.5',
      port: httpsPort,
      tls: policyCertificate,
      handler: servePolicy(policy),
    }),
  );
  dns = await startFixtureDnsServer({
    zones: [
      ...dnsblWorld(zones, {}),
      {
        origin: 'net',
        records: {
          'good.net': {
            TXT: ['v=spf1 ip4:192.0.3.10 -all'],
            MX: [
              { exchange: 'mx1.good.net', priority: 10 },
              { exchange: 'mx2.good.net', priority: 20 },
              { exchange: 'mx3.good.net', priority: 30 },
            ],
          },
          'mx1.good.net': { A: ['127.0.0.2'] },
          'mx2.good.net': { A: ['127.0.0.3'] },
          'mx3.good.net': { A: ['127.0.0.4'] },
          'out.good.net': { A: ['192.0.3.10'] },
          '_dmarc.good.net': {
            TXT: [
              'v=DMARC1; p=reject; rua=mailto:d@good.net,mailto:r@reports.example.org,mailto:x@nobody.org',
            ],
          },
          'google._domainkey.good.net': { TXT: [`v=DKIM1; k=ed25519; p=${ed25519}`] },
          'selector1._domainkey.good.net': { TXT: ['v=DKIM1; k=rsa; p='] },
          'custom._domainkey.good.net': { TXT: [`v=DKIM1; p=${rsa2048}`] },
          'default._bimi.good.net': { TXT: ['v=BIMI1; l=https://good.net/logo.svg'] },
          '_mta-sts.good.net': { TXT: ['v=STSv1; id=20240101'] },
          'mta-sts.good.net': { A: ['127.0.0.5'] },
          '_smtp._tls.good.net': { TXT: ['v=TLSRPTv1; rua=mailto:tls@good.net'] },

          'solid.net': {
            TXT: ['v=spf1 ip4:192.0.3.10 -all'],
            MX: [{ exchange: 'mx.solid.net', priority: 10 }],
          },
          'mx.solid.net': { A: ['127.0.0.2'] },
          '_dmarc.solid.net': { TXT: ['v=DMARC1; p=quarantine'] },
          'google._domainkey.solid.net': { TXT: [`v=DKIM1; p=${rsa2048}`] },
          '_mta-sts.solid.net': { TXT: ['v=STSv1; id=1'] },
          'mta-sts.solid.net': { A: ['127.0.0.5'] },

          'inside.net': { TXT: ['v=spf1 -all'], MX: [{ exchange: 'mx.inside.net', priority: 10 }] },
          'mx.inside.net': { A: ['10.0.0.25'] },

          'nomail.net': {
            TXT: ['v=spf1 -all'],
            MX: [{ exchange: '.', priority: 0 }],
            A: ['192.0.3.40'],
          },
        },
      },
      {
        origin: 'org',
        records: { 'good.net._report._dmarc.reports.example.org': { TXT: ['v=DMARC1'] } },
      },
      {
        origin: '3.0.192.in-addr.arpa',
        records: { '10.3.0.192.in-addr.arpa': { PTR: ['out.good.net'] } },
      },
    ],
  });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await dns?.close();
});

function deps(
  resolver: Resolver = createResolver({ servers: [dns.address], timeoutMs: 500, retries: 0 }),
): MailCheckDeps {
  const reachable = (address: string) =>
    isPublicIpv4(address) || isPublicIpv6(address) || address.startsWith('127.');
  return {
    resolver,
    dnsbl: createDnsblEngine({ resolver, zones }),
    deadlineMs: 2000,
    probeDeadlineMs: smtpTimeoutMs + 3000,
    now: () => new Date(),
    reachable,
    smtp: createSmtpProber({
      port: smtpPort,
      timeoutMs: smtpTimeoutMs,
      reachable,
      ehloName: 'probe.test',
      maxConcurrent: 8,
    }),
    policy: createPolicyFetcher({ port: httpsPort, timeoutMs: smtpTimeoutMs, reachable }),
  };
}

async function check(
  name: string,
  selectors: string[] = [],
  given = deps(),
): Promise<MailCheckResult> {
  const outcome = await checkMail(given, { name, display: name }, { selectors });
  if (!outcome.ok) throw new Error(`${outcome.error}: ${outcome.reason}`);
  // Every result is what the schema (and so the OpenAPI document) says.
  return mailCheckResultSchema.parse(outcome.result);
}

describe('checkMail', () => {
  it('probes each MX host once: STARTTLS with a trusted certificate, one without STARTTLS, a tarpit within the bound', async () => {
    const started = performance.now();
    const result = await check('good.net', ['custom']);
    const took = performance.now() - started;
    expect(
      result.mx.map((host) => [
        host.host,
        host.preference,
        host.addresses,
        host.smtp.status,
        host.smtp.stage,
      ]),
    ).toEqual([
      ['mx1.good.net', 10, ['127.0.0.2'], 'ok', null],
      ['mx2.good.net', 20, ['127.0.0.3'], 'no_starttls', 'ehlo'],
      ['mx3.good.net', 30, ['127.0.0.4'], 'timeout', 'greeting'],
    ]);
    expect(result.mx[0]!.smtp.certificate).toMatchObject({ trusted: true, name_matches: true });
    // The tarpit costs SMTP_TIMEOUT_MS, not more: the whole check within it and a few seconds.
    expect(took).toBeLessThan(smtpTimeoutMs + 3000);
    // The MX servers' STARTTLS is a rule of its own; the providers' tls rule is the sending side's.
    expect(result.inbound_tls).toMatchObject({
      rule: 'inbound_tls',
      required: false,
      status: 'fail',
      detail: expect.stringContaining('mx2.good.net'),
    });
    expect(result.requirements.gmail.rules.find((rule) => rule.rule === 'tls')).toMatchObject({
      status: 'unknown',
    });
    expect(result.fixes.map((fix) => fix.code)).toContain('inbound_starttls');
  });

  it('reads DKIM at the caller’s, the inferred and the common selectors', async () => {
    const { dkim } = await check('good.net', ['custom']);
    expect(dkim.status).toBe('found');
    expect(dkim.tried[0]).toBe('custom');
    expect(dkim.selectors).toEqual([
      expect.objectContaining({
        selector: 'custom',
        source: 'caller',
        status: 'found',
        key_type: 'rsa',
        key_bits: 2048,
      }),
      expect.objectContaining({
        selector: 'google',
        source: 'Google Workspace',
        status: 'found',
        key_type: 'ed25519',
      }),
      expect.objectContaining({ selector: 'selector1', status: 'revoked' }),
    ]);
  });

  it('keeps to 10 caller selectors that DNS can carry, whoever calls it', async () => {
    const named = Array.from({ length: 12 }, (_, index) => `sel${index}`);
    const { dkim } = await check('solid.net', ['bad name!', '', ...named]);
    expect(dkim.tried.slice(0, 11)).toEqual([...named.slice(0, 10), 'google']);
    expect(dkim.selectors.filter((selector) => selector.source === 'caller')).toHaveLength(10);
  });

  it('reads DMARC’s tags and asks each external report destination for its authorisation (RFC 7489 §7.1)', async () => {
    const { dmarc } = await check('good.net');
    expect(dmarc).toMatchObject({
      p: 'reject',
      pct: 100,
      adkim: 'r',
      aspf: 'r',
      applied: 'domain',
    });
    expect(dmarc.rua.map((d) => [d.domain, d.external, d.authorized])).toEqual([
      ['good.net', false, null],
      ['reports.example.org', true, true],
      ['nobody.org', true, false],
    ]);
  });

  it('fetches the MTA-STS policy over HTTPS and checks the MX hosts against it', async () => {
    const result = await check('good.net');
    expect(result.mta_sts).toMatchObject({
      status: 'enforce',
      id: '20240101',
      policy: { mode: 'enforce', mx: ['*.good.net', 'mx.solid.net'], max_age: 604800 },
      mx_covered: true,
    });
    expect(result.tls_rpt).toMatchObject({ status: 'found', rua: ['mailto:tls@good.net'] });
    expect(result.bimi).toMatchObject({
      status: 'found',
      l: 'https://good.net/logo.svg',
      dmarc_ready: true,
    });
    expect(result.dane).toMatchObject({ status: 'not_checked', validating: null });
  });

  it('passes every provider for a domain whose visible setup is sound, DKIM and alignment ready in DNS, the unseen rules unknown and counted', async () => {
    const result = await check('solid.net');
    const statuses = Object.fromEntries(
      result.requirements.gmail.rules.map((rule) => [rule.rule, rule.status]),
    );
    expect(statuses).toEqual({
      spf: 'pass',
      dkim: 'ready',
      dmarc: 'pass',
      alignment: 'ready',
      ptr: 'pass',
      tls: 'unknown',
      listing: 'pass',
      spam_rate: 'unknown',
      one_click_unsubscribe: 'unknown',
      message_format: 'unknown',
    });
    expect([
      result.requirements.gmail.verdict,
      result.requirements.yahoo.verdict,
      result.requirements.microsoft.verdict,
    ]).toEqual(['pass', 'pass', 'pass']);
    expect(result.requirements.gmail.unseen).toBe(4);
    expect(result.inbound_tls.status).toBe('pass');
    expect(result.mail_score.verdict).toBe('good');
    expect(result.mta_sts).toMatchObject({ status: 'enforce', mx_covered: true });
  });

  it('never connects to an MX host that points inside, and says why', async () => {
    const before = sessionsAtGood();
    const result = await check('inside.net');
    expect(result.mx).toEqual([
      expect.objectContaining({
        host: 'mx.inside.net',
        addresses: ['10.0.0.25'],
        smtp: expect.objectContaining({
          status: 'not_probed',
          detail: expect.stringContaining('not a public address'),
        }),
      }),
    ]);
    expect(sessionsAtGood()).toBe(before);
  });

  it('reports a null MX (RFC 7505) and probes nothing', async () => {
    const result = await check('nomail.net');
    expect(result).toMatchObject({ null_mx: true, implicit_mx: false, mx: [] });
  });

  it('says port 25 may be blocked when no MX host answers at the connection stage', async () => {
    const closed = await freePort();
    const given = deps();
    given.smtp = createSmtpProber({
      port: closed,
      timeoutMs: smtpTimeoutMs,
      reachable: given.reachable,
      ehloName: 'probe.test',
      maxConcurrent: 8,
    });
    const result = await check('solid.net', [], given);
    expect(result.mx[0]!.smtp).toMatchObject({ status: 'refused', stage: 'connect' });
    expect(result.notes).toContainEqual(expect.stringContaining('port 25 may be blocked'));
    expect(result.requirements.gmail.rules.find((rule) => rule.rule === 'tls')!.status).toBe(
      'unknown',
    );
  });

  it('reports not_probed with the runtime’s reason where SMTP cannot be opened', async () => {
    const given = deps();
    given.smtp = { unavailable: 'Workers cannot open TCP port 25' };
    const result = await check('solid.net', [], given);
    expect(result.mx[0]!.smtp).toMatchObject({
      status: 'not_probed',
      detail: 'Workers cannot open TCP port 25',
    });
  });

  it.each([
    [true, 'found', null],
    [false, 'found', expect.stringContaining('does not validate DNSSEC')],
  ])('reads DANE’s TLSA records with the resolver’s AD bit (AD %s)', async (ad, status, detail) => {
    const resolver = await startScriptedDnsServer({
      onQuery: (query) => {
        const [question] = query.packet.questions ?? [];
        const found = question?.name === '_25._tcp.mx.solid.net';
        query.reply(
          dnsPacket.encode({
            type: 'response',
            id: query.packet.id ?? 0,
            flags:
              dnsPacket.RECURSION_AVAILABLE | (ad ? dnsPacket.AUTHENTIC_DATA : 0) | (found ? 0 : 3),
            questions: query.packet.questions ?? [],
            answers: found
              ? [
                  {
                    type: 'TLSA',
                    name: question.name,
                    ttl: 60,
                    data: {
                      usage: 3,
                      selector: 1,
                      matchingType: 1,
                      certificate: Buffer.alloc(32, 7),
                    },
                  },
                ]
              : [],
          }),
        );
      },
    });
    try {
      const given = deps();
      const port = Number(resolver.address.split(':')[1]);
      given.tlsa = createTlsaLookup({
        servers: [{ host: '127.0.0.1', port, family: 4 }],
        timeoutMs: 500,
      });
      const { dane } = await check('solid.net', [], given);
      expect(dane).toMatchObject({
        status,
        validating: ad,
        hosts: [
          {
            host: 'mx.solid.net',
            status: 'found',
            authenticated: ad,
            records: [{ usage: 3, data: '07'.repeat(32) }],
          },
        ],
        detail,
      });
    } finally {
      await resolver.close();
    }
  });
});
