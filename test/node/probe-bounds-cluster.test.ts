import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { destinationBounds } from '../../src/reputation/mail/probes/index.js';
import {
  type FixtureDnsServer,
  type FixtureZone,
  startFixtureDnsServer,
} from '../../fixtures/dns-server.js';
import { dnsblWorld } from '../../fixtures/dnsbl-world.js';
import { freePort } from '../../fixtures/free-port.js';
import { type SmtpWorldServer, startSmtpServer } from '../../fixtures/mail-world.js';
import { freshRedisUrl } from '../support/redis.js';
import { killServerProcesses, startServerProcess } from '../support/server-process.js';

/**
 * The bounds per destination under WORKERS=2 (docs/mail.md, "Bounds and safety"): both workers
 * count one address's probes in the one store they share, a SQLite file or Redis, so the SMTP
 * sessions to it stay at the address's bound while checks land on either worker (each with a
 * probe cache of its own, which distinct MX names miss).
 */

/** Six domains more than the address's bound: each check opens one session to 127.0.0.2. */
const floodDomains = Array.from(
  { length: destinationBounds.perAddress + 6 },
  (_, d) => `flood${d}.net`,
);
const mailZone: FixtureZone = {
  origin: 'net',
  records: Object.fromEntries(
    floodDomains.flatMap((domain) => [
      [
        domain,
        {
          TXT: ['v=spf1 -all'],
          MX: [0, 1, 2, 3, 4].map((i) => ({ exchange: `mx${i}.${domain}`, priority: 10 + i })),
        },
      ],
      ...[0, 1, 2, 3, 4].map((i) => [`mx${i}.${domain}`, { A: ['127.0.0.2'] }]),
    ]),
  ),
};
const operatorToken = 'operator-token-of-the-probe-bounds';

let dns: FixtureDnsServer;
let smtp: SmtpWorldServer;
let smtpPort: number;
beforeAll(async () => {
  dns = await startFixtureDnsServer({
    zones: [...dnsblWorld(await loadZoneList(), {}), mailZone],
  });
  smtpPort = await freePort();
}, 60_000);
afterAll(() => dns.close());
afterEach(async () => {
  killServerProcesses();
  await smtp?.close();
});

async function floodOneAddress(storeUrl: string): Promise<number> {
  smtp = await startSmtpServer({ host: '127.0.0.2', port: smtpPort });
  const server = await startServerProcess(
    {
      DNS_SERVERS: dns.address,
      STORE_URL: storeUrl,
      WORKERS: '2',
      DAILY_LIMIT: '1000',
      OPERATOR_TOKEN: operatorToken,
      PROBE_ALLOW_NETWORKS: '127.0.0.0/8',
      PROBE_SMTP_PORT: String(smtpPort),
      SMTP_TIMEOUT_MS: '3000',
    },
    { listeners: 2 },
  );
  const check = async (domain: string) => {
    // A new connection each: the workers take them in turn.
    const response = await fetch(`${server.url}/mail/v1`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${operatorToken}`,
        connection: 'close',
      },
      body: JSON.stringify({ domain }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { mx: Array<{ smtp: { status: string } }> };
    return answer.mx[0]!.smtp.status;
  };
  const statuses: string[] = [];
  // Six at a time: the store's count is atomic, whichever worker asks first.
  for (let at = 0; at < floodDomains.length; at += 6) {
    statuses.push(...(await Promise.all(floodDomains.slice(at, at + 6).map(check))));
  }
  expect(statuses.filter((status) => status !== 'not_probed')).toHaveLength(
    destinationBounds.perAddress,
  );
  expect(await server.stop()).toBe(0);
  return smtp.sessions();
}

describe('the bounds per destination under WORKERS=2', () => {
  it(
    'keeps one address’s SMTP sessions to its bound with both workers on one SQLite file',
    { timeout: 120_000 },
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'probe-bounds-'));
      const sessions = await floodOneAddress(`sqlite:${join(folder, 'reputation.db')}`);
      expect(sessions).toBe(destinationBounds.perAddress);
    },
  );

  it(
    'keeps one address’s SMTP sessions to its bound with both workers on one Redis',
    { timeout: 120_000 },
    async () => {
      const sessions = await floodOneAddress(await freshRedisUrl());
      expect(sessions).toBe(destinationBounds.perAddress);
    },
  );
});
