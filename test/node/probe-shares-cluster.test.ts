import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import {
  capacityShortage,
  defaultProbeShares,
  probeSlots,
} from '../../src/reputation/mail/probes/index.js';
import {
  type FixtureDnsServer,
  type FixtureZone,
  startFixtureDnsServer,
} from '../../fixtures/dns-server.js';
import { dnsblWorld } from '../../fixtures/dnsbl-world.js';
import { freePort } from '../../fixtures/free-port.js';
import {
  type SmtpWorldServer,
  startSmtpServer,
  startTarpit,
  type Tarpit,
} from '../../fixtures/mail-world.js';
import { freshRedisUrl } from '../support/redis.js';
import { killServerProcesses, startServerProcess } from '../support/server-process.js';

/**
 * A caller's share of the probe slots under WORKERS=2 (docs/mail.md, "Bounds and safety"): both
 * workers hold a caller's probes in the one store they share, a SQLite file or Redis, so one
 * caller flooding mail checks of tarpits (servers that accept and never greet) across both
 * workers holds at most its share of SMTP sessions at once, where a share per process let it hold
 * twice that; its surplus is `not_probed` for the service's capacity, and another network's
 * caller, landing on either worker meanwhile, is probed.
 */

const { perCaller } = defaultProbeShares(probeSlots);
const tarpitAddresses = [4, 5, 6, 7, 8].map((n) => `127.0.0.${n}`);
/** Six domains of five MX names each on the five tarpits: 30 distinct probes, none joined. */
const floodDomains = Array.from({ length: 6 }, (_, d) => `flood${d}.net`);
/** Another network's caller's domains: one MX on a server that answers. */
const otherDomains = Array.from({ length: 4 }, (_, d) => `solid${d}.net`);
const mailZone: FixtureZone = {
  origin: 'net',
  records: Object.fromEntries([
    ...floodDomains.flatMap((domain) => [
      [
        domain,
        {
          TXT: ['v=spf1 -all'],
          MX: tarpitAddresses.map((_, i) => ({ exchange: `mx${i}.${domain}`, priority: 10 + i })),
        },
      ],
      ...tarpitAddresses.map((address, i) => [`mx${i}.${domain}`, { A: [address] }]),
    ]),
    ...otherDomains.flatMap((domain) => [
      [domain, { TXT: ['v=spf1 -all'], MX: [{ exchange: `mx.${domain}`, priority: 10 }] }],
      [`mx.${domain}`, { A: ['127.0.0.2'] }],
    ]),
  ]),
};
const operatorToken = 'operator-token-of-the-probe-shares';

let dns: FixtureDnsServer;
beforeAll(async () => {
  dns = await startFixtureDnsServer({
    zones: [...dnsblWorld(await loadZoneList(), {}), mailZone],
  });
}, 60_000);
afterAll(() => {
  // The two stores' runs go side by side: what either left running goes when both are done.
  killServerProcesses();
  return dns.close();
});

type Answer = { mx: Array<{ smtp: { status: string; detail: string | null } }> };

async function floodFromOneCaller(storeUrl: string): Promise<void> {
  // A port of the run's own: the other store's run stands its servers at the same addresses.
  const smtpPort = await freePort();
  const good = await startSmtpServer({ host: '127.0.0.2', port: smtpPort });
  const tarpits = await Promise.all(
    tarpitAddresses.map((host) => startTarpit({ host, port: smtpPort })),
  );
  try {
    await floodAcrossWorkers(storeUrl, smtpPort, good, tarpits);
  } finally {
    await Promise.all([good.close(), ...tarpits.map((tarpit) => tarpit.close())]);
  }
}

async function floodAcrossWorkers(
  storeUrl: string,
  smtpPort: number,
  good: SmtpWorldServer,
  tarpits: Tarpit[],
): Promise<void> {
  const server = await startServerProcess(
    {
      DNS_SERVERS: dns.address,
      STORE_URL: storeUrl,
      WORKERS: '2',
      DAILY_LIMIT: '1000',
      TRUST_PROXY: '1',
      OPERATOR_TOKEN: operatorToken,
      PROBE_ALLOW_NETWORKS: '127.0.0.0/8',
      PROBE_SMTP_PORT: String(smtpPort),
      // The tarpits hold a probe for the greeting's bound, half of this: the flood's checks all
      // take their slots well before the first is given back.
      SMTP_TIMEOUT_MS: '6000',
    },
    { listeners: 2 },
  );
  const check = async (domain: string, caller: string) => {
    // A new connection each: the workers take them in turn.
    const response = await fetch(`${server.url}/mail/v1`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${operatorToken}`,
        'x-forwarded-for': caller,
        connection: 'close',
      },
      body: JSON.stringify({ domain }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Answer;
  };
  const sessions = () => tarpits.reduce((sum, tarpit) => sum + tarpit.connections(), 0);

  const flood = Promise.all(floodDomains.map((domain) => check(domain, '198.51.100.1')));
  while (sessions() < perCaller) await new Promise((resolve) => setTimeout(resolve, 20));
  // While the flood holds its share: another network's caller, one check after another.
  const before = good.sessions();
  for (const domain of otherDomains) {
    const answer = await check(domain, '203.0.113.7');
    expect(answer.mx[0]!.smtp.status).toBe('no_starttls');
  }
  expect(good.sessions()).toBe(before + otherDomains.length);

  const probes = (await flood).flatMap((answer) => answer.mx.map((host) => host.smtp));
  const refused = probes.filter((probe) => probe.status === 'not_probed');
  expect(probes).toHaveLength(floodDomains.length * tarpitAddresses.length);
  expect(probes.length - refused.length).toBe(perCaller);
  for (const probe of refused) {
    expect(probe.detail).toContain(`${capacityShortage} (caller share, ${perCaller} at once)`);
  }
  // The sessions the tarpits took: the share once, not once per worker.
  expect(sessions()).toBe(perCaller);
  expect(tarpits.reduce((sum, tarpit) => sum + tarpit.mostOpen(), 0)).toBe(perCaller);
  expect(await server.stop()).toBe(0);
}

describe.concurrent('a caller’s share of the probe slots under WORKERS=2', () => {
  it(
    'holds one caller to its share of SMTP sessions across both workers on one SQLite file',
    { timeout: 60_000 },
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'probe-shares-'));
      await floodFromOneCaller(`sqlite:${join(folder, 'reputation.db')}`);
    },
  );

  it(
    'holds one caller to its share of SMTP sessions across both workers on one Redis',
    { timeout: 60_000 },
    async () => {
      await floodFromOneCaller(await freshRedisUrl());
    },
  );
});
