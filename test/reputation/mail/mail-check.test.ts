import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rsaDkimKeys } from '../../../fixtures/dkim-keys.js';
import dnsPacket from 'dns-packet';
import {
  createPolicyFetcher,
  createSmtpProber,
  createTlsaLookup,
} from '../../../src/node/probes/index.js';
import { startScriptedDnsServer } from '../../../fixtures/scripted-dns-server.js';
import { createDnsblEngine } from '../../../src/reputation/lists/dnsbl.js';
import { checkMail, type MailCheckDeps } from '../../../src/reputation/mail/index.js';
import { asSeenBy } from '../../../src/reputation/mail/mx-check.js';
import {
  type MailCheckResult,
  mailCheckResultSchema,
  maxCertificateNames,
  type SmtpProbe,
} from '../../../src/reputation/results/index.js';
import { isPublicIpv4, isPublicIpv6 } from '../../../src/lib/index.js';
import type { MemoryDns } from '../../../fixtures/memory-dns.js';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import { freePort } from '../../../fixtures/free-port.js';
import { keylessZoneList } from '../../../fixtures/keyless-lists.js';
import {
  issueCertificate,
  type Listening,
  type Pem,
  servePolicy,
  startPolicyServer,
  startSmtpServer,
  startTarpit,
} from '../../../fixtures/mail-world.js';
import { memoryResolver, memoryWorld } from '../../support/memory-resolver.js';
import {
  policyFetcherDouble,
  smtpProberDouble,
  type SmtpProberDouble,
} from '../../support/probe-doubles.js';

/**
 * The mail check, judged by what it makes of the DNS and of its probes' answers: the fixture DNS
 * world in memory, and the probes answered in this process as Node's report the mail world's
 * servers (test/support/probe-doubles.ts), so no test waits on a tarpit it is not about. What
 * only the wire shows stays on it: the MX hosts probed over SMTP and STARTTLS (real SMTP servers
 * on 127.0.0.2-4, one with STARTTLS on a certificate of the run's test CA, one without, a
 * tarpit, on one PROBE_SMTP_PORT), the MTA-STS policy over HTTPS on 127.0.0.5, a closed port,
 * TLSA with the AD bit of a DNS server; and the doubles' answers are held to the probes' on those
 * servers. Probes reach 127.0.0.0/8 because the test allows it, as PROBE_ALLOW_NETWORKS would.
 */

const ca = inject('mailCa');
const zones = await keylessZoneList();
const smtpTimeoutMs = 1000;
const servers: Listening[] = [];
let world: MemoryDns;
let smtpPort: number;
let httpsPort: number;
let sessionsAtGood: () => number;
let mxCertificate: Pem;
let policyCertificate: Pem;

const ed25519 = '11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=';
const rsa2048 = rsaDkimKeys[2048];
const policy =
  'version: STSv1\r\nmode: enforce\r\nmx: *.good.net\r\nmx: mx.solid.net\r\nmax_age: 604800\r\n';

const mailZones: FixtureZone[] = [
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

      'shared.net': {
        TXT: ['v=spf1 -all'],
        MX: [
          { exchange: 'mx.solid.net', priority: 10 },
          { exchange: 'mx.shared.net', priority: 20 },
          { exchange: 'mx1.good.net', priority: 30 },
        ],
      },
      'mx.shared.net': { A: ['127.0.0.2'] },

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
];

beforeAll(async () => {
  smtpPort = await freePort();
  httpsPort = await freePort();
  [mxCertificate, policyCertificate] = await Promise.all([
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
  world = memoryWorld([...dnsblWorld(zones, {}), ...mailZones]);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  world?.close();
});

const reachable = (address: string) =>
  isPublicIpv4(address) || isPublicIpv6(address) || address.startsWith('127.');

/** Node's probes, on the wire to the servers above. */
const onTheWire = {
  smtp: (timeoutMs = smtpTimeoutMs) =>
    createSmtpProber({
      port: smtpPort,
      timeoutMs,
      reachable,
      ehloName: 'probe.test',
      maxConcurrent: 8,
    }),
  policy: () => createPolicyFetcher({ port: httpsPort, timeoutMs: smtpTimeoutMs, reachable }),
};

/** The same servers, as the doubles answer for them. */
const doubles = {
  smtp: (timeoutMs = smtpTimeoutMs): SmtpProberDouble =>
    smtpProberDouble(
      {
        '127.0.0.2': { kind: 'starttls', certificate: mxCertificate },
        '127.0.0.3': { kind: 'plain' },
        '127.0.0.4': { kind: 'tarpit' },
      },
      { timeoutMs, reachable },
    ),
  policy: () =>
    policyFetcherDouble(
      { '127.0.0.5': { certificate: policyCertificate, policy: () => policy } },
      { port: httpsPort, reachable },
    ),
};

function deps(
  given: Partial<MailCheckDeps> = {},
  resolver = memoryResolver(world, 500),
): MailCheckDeps {
  return {
    resolver,
    dnsbl: createDnsblEngine({ resolver, zones }),
    deadlineMs: 2000,
    probeDeadlineMs: smtpTimeoutMs + 3000,
    now: () => new Date(),
    reachable,
    smtp: doubles.smtp(),
    policy: doubles.policy(),
    ...given,
  };
}

async function check(
  name: string,
  selectors: string[] = [],
  given = deps(),
): Promise<MailCheckResult> {
  // The test's servers are on loopback: the operator's checks reach it (PROBE_ALLOW_NETWORKS).
  const outcome = await checkMail(given, { name, display: name }, { selectors, operator: true });
  if (!outcome.ok) throw new Error(`${outcome.error}: ${outcome.reason}`);
  // Every result is what the schema (and so the OpenAPI document) says.
  return mailCheckResultSchema.parse(outcome.result);
}

describe('the probe doubles', () => {
  it('answer as the probes on the wire do, server by server', async () => {
    const smtpAsked: [string, string][] = [
      ['mx1.good.net', '127.0.0.2'],
      ['mx.solid.net', '127.0.0.2'],
      ['mx.other.org', '127.0.0.2'],
      ['mx2.good.net', '127.0.0.3'],
      ['mx3.good.net', '127.0.0.4'],
      ['mx.closed.net', '127.0.0.6'],
      ['mx.inside.net', '10.0.0.25'],
    ];
    const policyAsked: [string, string][] = [
      ['mta-sts.good.net', '127.0.0.5'],
      ['mta-sts.other.org', '127.0.0.5'],
      ['mta-sts.closed.net', '127.0.0.6'],
      ['mta-sts.inside.net', '10.0.0.25'],
    ];
    const signal = new AbortController().signal;
    const probeAll = (smtp: ReturnType<typeof onTheWire.smtp>) =>
      Promise.all(
        smtpAsked.map(([host, address]) => smtp.probe({ host, address, operator: true, signal })),
      );
    const fetchAll = (fetcher: ReturnType<typeof onTheWire.policy>) =>
      Promise.all(
        policyAsked.map(([host, address]) =>
          fetcher.fetch({
            host,
            address,
            path: '/.well-known/mta-sts.txt',
            operator: true,
            signal,
          }),
        ),
      );
    // The tarpit's stage bound is all this waits for: a short one.
    const [wireProbes, wirePolicies] = await Promise.all([
      probeAll(onTheWire.smtp(300)),
      fetchAll(onTheWire.policy()),
    ]);
    expect(await probeAll(doubles.smtp(300))).toEqual(wireProbes);
    expect(await fetchAll(doubles.policy())).toEqual(wirePolicies);
    // Each kind of answer was met: a trusted certificate, a name that does not match, no
    // STARTTLS, a timeout, a refusal; a policy, a name Node refused, a closed port.
    expect(wireProbes.map((probe) => [probe.status, probe.certificate?.trusted ?? null])).toEqual([
      ['ok', true],
      ['ok', true],
      ['ok', false],
      ['no_starttls', null],
      ['timeout', null],
      ['refused', null],
      ['not_probed', null],
    ]);
    expect(wirePolicies.map((fetched) => fetched.ok)).toEqual([true, false, false, false]);
    // One session's probe read for another name at its address is what Node says of that name,
    // from a certificate that names it and from one that does not.
    const [asGood, asSolid, asOther] = wireProbes;
    expect(asSeenBy(asGood!, 'mx.solid.net')).toEqual(asSolid);
    expect(asSeenBy(asGood!, 'mx.other.org')).toEqual(asOther);
    expect(asSeenBy(asOther!, 'mx1.good.net')).toEqual(asGood);
  });
});

describe('one session read for another name at its address', () => {
  const session = (subjectNames: string[]): SmtpProbe => ({
    status: 'ok',
    stage: null,
    address: '192.0.2.25',
    banner: '220 mx',
    starttls: true,
    tls: { version: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384' },
    certificate: {
      subject_names: subjectNames,
      issuer: 'CN=CA',
      not_after: '2030-01-01T00:00:00.000Z',
      days_left: 1000,
      trusted: true,
      name_matches: true,
      trust_error: null,
    },
    detail: null,
  });

  it('leaves a name to a session of its own when the names shown cannot say no for certain', () => {
    const many = Array.from({ length: maxCertificateNames }, (_, n) => `mx${n}.example.net`);
    // The list shown is cut: the name may be among those left out.
    expect(asSeenBy(session(many), 'mx.other.net')).toBeUndefined();
    expect(asSeenBy(session(many), 'mx3.example.net')?.certificate?.trusted).toBe(true);
    // A partial wildcard, which the runtime may accept and this reading does not.
    expect(asSeenBy(session(['mx*.example.net']), 'mx2.example.net')).toBeUndefined();
    expect(asSeenBy(session(['mx.example.net']), 'mx2.example.net')?.certificate).toMatchObject({
      trusted: false,
      name_matches: false,
      trust_error: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
  });
});

describe('checkMail', () => {
  it('probes each MX host once: STARTTLS with a trusted certificate, one without STARTTLS, a tarpit within the bound', async () => {
    const started = performance.now();
    const result = await check(
      'good.net',
      ['custom'],
      deps({ smtp: onTheWire.smtp(), policy: onTheWire.policy() }),
    );
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

  it('opens one SMTP session per distinct address, its certificate judged for every MX name there', async () => {
    const before = sessionsAtGood();
    const result = await check(
      'shared.net',
      [],
      deps({ smtp: onTheWire.smtp(), policy: onTheWire.policy() }),
    );
    expect(sessionsAtGood()).toBe(before + 1);
    expect(
      result.mx.map((host) => [
        host.host,
        host.smtp.status,
        host.smtp.certificate?.name_matches,
        host.smtp.certificate?.trusted,
        host.smtp.detail,
      ]),
    ).toEqual([
      ['mx.solid.net', 'ok', true, true, null],
      [
        'mx.shared.net',
        'ok',
        false,
        false,
        'the certificate does not verify for mx.shared.net: ERR_TLS_CERT_ALTNAME_INVALID',
      ],
      ['mx1.good.net', 'ok', true, true, null],
    ]);
    // The session's greeting and handshake are every name's.
    expect(new Set(result.mx.map((host) => host.smtp.banner)).size).toBe(1);
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
    const result = await check('good.net', [], deps({ policy: onTheWire.policy() }));
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
    const smtp = doubles.smtp();
    const result = await check('inside.net', [], deps({ smtp }));
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
    expect(smtp.requests).toEqual([]);
  });

  it('reports a null MX (RFC 7505) and probes nothing', async () => {
    const result = await check('nomail.net');
    expect(result).toMatchObject({ null_mx: true, implicit_mx: false, mx: [] });
  });

  it('says port 25 may be blocked when no MX host answers at the connection stage', async () => {
    // On the wire: a port nothing listens on, which the kernel refuses.
    const closed = await freePort();
    const smtp = createSmtpProber({
      port: closed,
      timeoutMs: smtpTimeoutMs,
      reachable,
      ehloName: 'probe.test',
      maxConcurrent: 8,
    });
    const result = await check('solid.net', [], deps({ smtp }));
    expect(result.mx[0]!.smtp).toMatchObject({ status: 'refused', stage: 'connect' });
    expect(result.notes).toContainEqual(expect.stringContaining('port 25 may be blocked'));
    expect(result.requirements.gmail.rules.find((rule) => rule.rule === 'tls')!.status).toBe(
      'unknown',
    );
  });

  it('reports not_probed with the runtime’s reason where SMTP cannot be opened', async () => {
    const given = deps({ smtp: { unavailable: 'Workers cannot open TCP port 25' } });
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
      const port = Number(resolver.address.split(':')[1]);
      const tlsa = createTlsaLookup({
        servers: [{ host: '127.0.0.1', port, family: 4 }],
        timeoutMs: 500,
      });
      const { dane } = await check('solid.net', [], deps({ tlsa }));
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
