import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import { freePort } from '../../../fixtures/free-port.js';
import { type SmtpWorldServer, startSmtpServer } from '../../../fixtures/mail-world.js';
import { destinationBounds } from '../../../src/reputation/mail/probes/index.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * Bounds per destination over real HTTP against the real app, counted on a real SMTP server
 * (docs/mail.md, "Bounds and safety"): one caller's checks of domains whose MX names all point
 * at one address make at most the address's bound of sessions there; past it a probe is
 * `not_probed` for the destination's bound (not a finding, not cached), and a host already
 * probed still answers from the probe cache.
 */

const servers: SmtpWorldServer[] = [];
let service: TestService;
let sessions: () => number;
const allSessions = () => servers.reduce((sum, server) => sum + server.sessions(), 0);

/**
 * Six domains more than the address's bound, of five MX names each, every name on 127.0.0.2: a
 * check opens one session per distinct address, so each domain asks for one.
 */
const floodDomains = Array.from(
  { length: destinationBounds.perAddress + 6 },
  (_, d) => `flood${d}.net`,
);
/** Twenty domains of five MX names each on five addresses of 127.0.0.0/24: 100 probes, 20 each. */
const spreadDomains = Array.from({ length: 20 }, (_, d) => `spread${d}.net`);
const spreadAddresses = [3, 4, 5, 6, 7].map((n) => `127.0.0.${n}`);
const domainOf = (domain: string, addressOf: (i: number) => string) => [
  [
    domain,
    {
      TXT: ['v=spf1 -all'],
      MX: [0, 1, 2, 3, 4].map((i) => ({ exchange: `mx${i}.${domain}`, priority: 10 + i })),
    },
  ],
  ...[0, 1, 2, 3, 4].map((i) => [`mx${i}.${domain}`, { A: [addressOf(i)] }]),
];
const zones: FixtureZone[] = [
  {
    origin: 'net',
    records: Object.fromEntries([
      ...floodDomains.flatMap((domain) => domainOf(domain, () => '127.0.0.2')),
      ...spreadDomains.flatMap((domain) => domainOf(domain, (i) => spreadAddresses[i]!)),
    ]),
  },
];

beforeAll(async () => {
  const port = await freePort();
  const server = await startSmtpServer({ host: '127.0.0.2', port });
  sessions = server.sessions;
  servers.push(server);
  for (const host of spreadAddresses) servers.push(await startSmtpServer({ host, port }));
  service = await startTestService({
    zones,
    asOperator: true,
    env: {
      PROBE_ALLOW_NETWORKS: '127.0.0.0/8',
      PROBE_SMTP_PORT: String(port),
      SMTP_TIMEOUT_MS: '3000',
      DAILY_LIMIT: '1000',
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
  inbound_tls: { status: string; detail: string };
  mx: Array<{ host: string; smtp: { status: string; detail: string | null } }>;
};

const check = async (domain: string, selectors: string[] = []) =>
  (await (await service.post('/mail/v1', { domain, dkim_selectors: selectors })).json()) as Answer;

describe('the probes bounded per destination', () => {
  it('makes at most the address’s bound of SMTP sessions to one address whatever one caller asks', async () => {
    const answers: Answer[] = [];
    for (const domain of floodDomains) answers.push(await check(domain));
    expect(sessions()).toBe(destinationBounds.perAddress);
    const probed = answers.filter((answer) => answer.mx[0]!.smtp.status !== 'not_probed');
    expect(probed).toHaveLength(destinationBounds.perAddress);
    // One session per check, whose facts its five names share.
    for (const answer of probed) {
      expect(new Set(answer.mx.map((host) => host.smtp.status))).toEqual(new Set(['no_starttls']));
    }
    const last = answers.at(-1)!;
    for (const host of last.mx) {
      expect(host.smtp).toMatchObject({
        status: 'not_probed',
        detail: expect.stringContaining('bound on probes to this destination is reached'),
      });
    }
    // The service's limit, not a finding: STARTTLS unknown, a note says why.
    expect(last.inbound_tls).toMatchObject({
      status: 'unknown',
      detail: expect.stringContaining('bound on probes to this destination'),
    });
    expect(last.notes).toContainEqual(expect.stringContaining('bound on probes'));

    // Not kept in the result cache: the same request asks again (and is refused again).
    const again = await check(floodDomains.at(-1)!);
    expect(again.from_cache).toBe(false);
    expect(again.token).not.toBe(last.token);

    // A host probed before the bound answers from the probe cache, with no new session.
    const before = sessions();
    const cached = await check(floodDomains[0]!, ['other']);
    expect(cached.from_cache).toBe(false);
    expect(cached.mx.map((host) => host.smtp.status)).toEqual(
      answers[0]!.mx.map((host) => host.smtp.status),
    );
    expect(cached.mx[0]!.smtp.status).not.toBe('not_probed');
    expect(sessions()).toBe(before);
  }, 60_000);

  it('makes at most the network’s bound of SMTP sessions to one /24, however many of its addresses', async () => {
    // The network already holds the first test's sessions to 127.0.0.2 (one service, one count).
    const answers: Answer[] = [];
    for (const domain of spreadDomains) answers.push(await check(domain));
    expect(allSessions()).toBe(destinationBounds.perNetwork);
    for (const server of servers) {
      expect(server.sessions()).toBeLessThanOrEqual(destinationBounds.perAddress);
    }
    const refused = answers.at(-1)!.mx[0]!.smtp;
    expect(refused).toMatchObject({
      status: 'not_probed',
      detail: expect.stringContaining(`${destinationBounds.perNetwork} probes to 127.0.0.0/24`),
    });
  }, 60_000);
});
