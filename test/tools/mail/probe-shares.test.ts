import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import { freePort } from '../../../fixtures/free-port.js';
import {
  issueCertificate,
  type Listening,
  startSmtpServer,
  startTarpit,
} from '../../../fixtures/mail-world.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * Fair shares of the probe slots over real HTTP against the real app (docs/mail.md, "Bounds and
 * safety"): callers of one network whose checks hold tarpits (five MX names each, on servers that
 * accept and never greet) take at most their network's share, so another caller's check probes its MX host; a
 * check of that flooded network past its share reads `not_probed` for the service's capacity, a
 * note says so, and that result is not served again from the result cache.
 */

const ca = inject('mailCa');
const servers: Listening[] = [];
let service: TestService;
let goodSessions: () => number;

const tarpitAddresses = [4, 5, 6, 7, 8].map((n) => `127.0.0.${n}`);
/** Eight domains of five MX names each on the five tarpits: 40 distinct probes, none joined. */
const tarpitDomains = Array.from({ length: 8 }, (_, d) => `tarpit${d}.net`);
const tarpitRecords = Object.fromEntries(
  tarpitDomains.flatMap((domain) => [
    [
      domain,
      {
        TXT: ['v=spf1 -all'],
        MX: tarpitAddresses.map((_, i) => ({ exchange: `mx${i}.${domain}`, priority: 10 + i })),
      },
    ],
    ...tarpitAddresses.map((address, i) => [`mx${i}.${domain}`, { A: [address] }]),
  ]),
);
const zones: FixtureZone[] = [
  {
    origin: 'net',
    records: {
      'solid.net': {
        TXT: ['v=spf1 -all'],
        MX: [{ exchange: 'mx.solid.net', priority: 10 }],
      },
      'mx.solid.net': { A: ['127.0.0.2'] },
      // Its own MX name on the same server: a probe of its own, not one joined from the cache.
      'other.net': { TXT: ['v=spf1 -all'], MX: [{ exchange: 'mx.other.net', priority: 10 }] },
      'mx.other.net': { A: ['127.0.0.2'] },
      '_dmarc.solid.net': { TXT: ['v=DMARC1; p=reject'] },
      ...tarpitRecords,
    },
  },
];

/** A caller by its X-Forwarded-For (TRUST_PROXY=1): one address of 198.51.100.0/24, or another network's. */
const from = (address: string) => ({ 'x-forwarded-for': address });

beforeAll(async () => {
  const port = await freePort();
  const good = await startSmtpServer({
    host: '127.0.0.2',
    port,
    tls: await issueCertificate(ca, ['mx.solid.net']),
  });
  goodSessions = good.sessions;
  servers.push(good);
  for (const address of tarpitAddresses) servers.push(await startTarpit({ host: address, port }));
  service = await startTestService({
    zones,
    asOperator: true,
    env: {
      TRUST_PROXY: '1',
      PROBE_ALLOW_NETWORKS: '127.0.0.0/8',
      PROBE_SMTP_PORT: String(port),
      SMTP_TIMEOUT_MS: '3000',
      CHECK_DEADLINE_MS: '5000',
      DAILY_LIMIT: '50',
    },
  });
}, 60_000);

afterAll(async () => {
  await service?.close();
  await Promise.all(servers.map((server) => server.close()));
});

type Answer = {
  token: string;
  from_cache: boolean;
  notes: string[];
  mx: Array<{ host: string; smtp: { status: string; detail: string | null } }>;
};

const check = async (domain: string, caller: string, selectors: string[] = []) =>
  (await (
    await service.post('/mail/v1', { domain, dkim_selectors: selectors }, from(caller))
  ).json()) as Answer;

describe('the probe slots shared fairly', () => {
  it('keeps another network’s check probing while eight callers of one network hold tarpits, and keeps a degraded result out of the cache', async () => {
    // Eight callers of 198.51.100.0/24, one check each of five tarpits: 40 probes wanted at once.
    const flood = Array.from({ length: 8 }, (_, i) =>
      check(tarpitDomains[i]!, `198.51.100.${i + 1}`),
    );
    // While they wait on their tarpits: another network's caller, and a ninth of the flooding one.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const before = goodSessions();
    const [other, ninth] = await Promise.all([
      check('solid.net', '203.0.113.7'),
      check('other.net', '198.51.100.99', ['n1']),
    ]);
    expect(other.mx[0]!.smtp.status).toBe('ok');
    expect(goodSessions()).toBe(before + 1);
    // The flooding network's share is full: its ninth check's probe is not made, and says why.
    expect(ninth.mx[0]!.smtp).toMatchObject({
      status: 'not_probed',
      detail: expect.stringContaining('probe capacity is in use'),
    });
    expect(ninth.notes).toContainEqual(expect.stringContaining('probe capacity was in use'));
    const flooded = await Promise.all(flood);
    const probed = flooded
      .flatMap((answer) => answer.mx)
      .filter((host) => host.smtp.status !== 'not_probed');
    // 15 at once for one network (three eighths of 40), every other probe not made for capacity.
    expect(probed.length).toBeLessThanOrEqual(15);
    for (const answer of flooded) {
      for (const host of answer.mx) {
        if (host.smtp.status === 'not_probed') {
          expect(host.smtp.detail).toContain('probe capacity is in use');
        }
      }
    }
    // The degraded result is not kept: the same request, once the slots are free, probes.
    const again = await check('other.net', '198.51.100.99', ['n1']);
    expect(again.from_cache).toBe(false);
    expect(again.token).not.toBe(ninth.token);
    expect(again.mx[0]!.smtp.status).toBe('ok');
  }, 30_000);
});
