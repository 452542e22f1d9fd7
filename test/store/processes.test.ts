import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { type FixtureDnsServer, startFixtureDnsServer } from '../../fixtures/dns-server.js';
import { dnsblWorld } from '../../fixtures/dnsbl-world.js';
import type { IpCheckAnswer, QuotaStatus } from '../support/responses.js';
import { freshRedisUrl } from '../support/redis.js';
import { killServerProcesses, postJson, startServerProcess } from '../support/server-process.js';

/**
 * What outlives a process, with real `npm start` processes (dist/server.js): a restart
 * on the SQLite store keeps tokens, badges, cards, the result cache and quota counts; two
 * processes on one SQLite file or one Redis share all of it, down to the last unit of a quota;
 * the default store is a file under the working directory. (A store that cannot be opened stops
 * the start with one line: test/server.test.ts.)
 */

let dns: FixtureDnsServer;
beforeAll(async () => {
  dns = await startFixtureDnsServer({ zones: dnsblWorld(await loadZoneList(), {}) });
});
afterAll(() => dns.close());
afterEach(killServerProcesses);

/** Each test starts one to three service processes: each takes seconds on a busy machine. */
const processTimeout = { timeout: 60_000 };

const temporaryFolder = () => mkdtempSync(join(tmpdir(), 'store-processes-'));

async function check(base: string, target: string): Promise<IpCheckAnswer> {
  const response = await postJson(`${base}/ip/v1`, { target });
  expect(response.status).toBe(200);
  return (await response.json()) as IpCheckAnswer;
}

async function remaining(base: string): Promise<number> {
  const status = (await (await fetch(`${base}/ip/v1/status`)).json()) as QuotaStatus;
  return status.dailyRemaining;
}

describe('a restart on the SQLite store', () => {
  it(
    'keeps tokens, badges, cards, the result cache and the quota count',
    processTimeout,
    async () => {
      const env = {
        DNS_SERVERS: dns.address,
        STORE_URL: `sqlite:${join(temporaryFolder(), 'reputation.db')}`,
        DAILY_LIMIT: '5',
      };
      const first = await startServerProcess(env);
      const made = await check(first.url, '8.8.4.4');
      expect(made.dailyRemaining).toBe(4);
      const result = await (await fetch(`${first.url}/ip/v1/${made.token}`)).text();
      const badge = await (await fetch(`${first.url}/ip/v1/share/${made.token}/badge.svg`)).text();
      expect(await first.stop()).toBe(0);

      const second = await startServerProcess(env);
      const again = await fetch(`${second.url}/ip/v1/${made.token}`);
      expect(again.status).toBe(200);
      expect(await again.text()).toBe(result);
      const badgeAgain = await fetch(`${second.url}/ip/v1/share/${made.token}/badge.svg`);
      expect(badgeAgain.status).toBe(200);
      expect(await badgeAgain.text()).toBe(badge);
      // Cards are drawn again by the new process from the stored result.
      const card = await fetch(`${second.url}/ip/v1/share/${made.token}/card`);
      expect(card.status).toBe(200);
      const metadata = await sharp(Buffer.from(await card.arrayBuffer())).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', 1200, 630]);
      expect(await remaining(second.url)).toBe(4);
      expect(await check(second.url, '8.8.4.4')).toMatchObject({
        token: made.token,
        from_cache: true,
        dailyRemaining: 4,
      });
      expect(await second.stop()).toBe(0);
    },
  );
});

describe('the store when STORE_URL is unset', () => {
  it(
    'is data/reputation.db under the working directory, folder created, holding the results',
    processTimeout,
    async () => {
      const cwd = temporaryFolder();
      const server = await startServerProcess({ DNS_SERVERS: dns.address }, { cwd });
      const made = await check(server.url, '8.8.4.4');
      expect(await server.stop()).toBe(0);
      const file = join(cwd, 'data', 'reputation.db');
      expect(existsSync(file)).toBe(true);
      const db = new Database(file, { readonly: true });
      const stored = db.prepare('SELECT key FROM entries').pluck().all();
      db.close();
      expect(stored).toContain(`default:token:ip:${made.token}`);
    },
  );
});

describe.each([
  ['SQLite file', async () => `sqlite:${join(temporaryFolder(), 'shared.db')}`],
  ['Redis', freshRedisUrl],
])('two processes on one %s', (_name, storeUrl) => {
  it(
    'share tokens and the result cache, and hand the last unit of a quota to one of 20 checks',
    processTimeout,
    async () => {
      const env = { DNS_SERVERS: dns.address, STORE_URL: await storeUrl(), DAILY_LIMIT: '2' };
      const [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
      const made = await check(a.url, '8.8.4.4');
      expect(made.dailyRemaining).toBe(1);
      expect((await fetch(`${b.url}/ip/v1/${made.token}`)).status).toBe(200);
      expect(await check(b.url, '8.8.4.4')).toMatchObject({ token: made.token, from_cache: true });
      expect(await remaining(b.url)).toBe(1);

      const statuses = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const response = await postJson(`${(i % 2 === 0 ? a : b).url}/ip/v1`, {
            target: `185.20.30.${i + 1}`,
          });
          return response.status;
        }),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 429)).toHaveLength(19);
      expect([await remaining(a.url), await remaining(b.url)]).toEqual([0, 0]);
      expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    },
  );
});
