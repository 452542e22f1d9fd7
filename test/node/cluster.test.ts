import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { type FixtureDnsServer, startFixtureDnsServer } from '../../fixtures/dns-server.js';
import { dnsblWorld } from '../../fixtures/dnsbl-world.js';
import { takenPort } from '../../fixtures/free-port.js';
import { parsePrometheusText, sampleValue } from '../support/prometheus-text.js';
import {
  expectOneLineFailure,
  failedStart,
  killServerProcesses,
  startServerProcess,
} from '../support/server-process.js';

/**
 * WORKERS=N: N processes behind one port (src/node/cluster.ts), sharing the store, stopped together on
 * SIGTERM; GET /metrics summed over them (src/node/cluster-metrics.ts), whichever worker takes the
 * scrape. (Refused with the memory store, which the workers could not share: test/config.test.ts.)
 */

let dns: FixtureDnsServer;
beforeAll(async () => {
  dns = await startFixtureDnsServer({ zones: dnsblWorld(await loadZoneList(), {}) });
});
afterAll(() => dns.close());
afterEach(killServerProcesses);

const temporaryFolder = () => mkdtempSync(join(tmpdir(), 'cluster-'));

/** A request on a connection of its own, so the primary hands it to the next worker. */
const alone = { connection: 'close' };

describe('WORKERS=2', () => {
  it(
    'serves one port from two workers sharing one store, answers every scrape of /metrics with the sum of both, and stops both on SIGTERM',
    { timeout: 60_000 },
    async () => {
      const server = await startServerProcess(
        {
          DNS_SERVERS: dns.address,
          STORE_URL: `sqlite:${join(temporaryFolder(), 'reputation.db')}`,
          WORKERS: '2',
          DAILY_LIMIT: '5',
        },
        { listeners: 2 },
      );
      const listening = server.lines.filter((line) => line.msg === 'listening');
      expect(new Set(listening.map((line) => line.worker))).toEqual(new Set([1, 2]));
      expect(new Set(listening.map((line) => line.url))).toEqual(new Set([server.url]));

      // Each check on a connection of its own, so the primary hands it to the next worker: each
      // worker serves half of them (src/node/cluster-metrics.ts).
      const targets = ['8.8.4.4', '8.8.8.8', '1.1.1.1', '9.9.9.9'];
      const tokens: string[] = [];
      for (const target of targets) {
        const response = await fetch(`${server.url}/ip/v1`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...alone },
          body: JSON.stringify({ target }),
        });
        expect(response.status).toBe(200);
        tokens.push(((await response.json()) as { token: string }).token);
      }
      // Whichever worker takes a scrape answers the whole service's figures, summed by the primary.
      const root = new URL(server.url).origin;
      for (let scrape = 0; scrape < 4; scrape++) {
        const response = await fetch(`${root}/metrics`, { headers: alone });
        expect(response.status).toBe(200);
        const exposition = parsePrometheusText(await response.text());
        expect(
          sampleValue(exposition, 'reputation_checks_total', { tool: 'ip', outcome: 'fresh' }),
        ).toBe(targets.length);
        expect(
          sampleValue(exposition, 'http_requests_total', {
            method: 'POST',
            route: '/tools/ip-reputation/ip/v1',
            status: '200',
          }),
        ).toBe(targets.length);
        expect(
          sampleValue(exposition, 'reputation_dnsbl_list_state', {
            list: 'bl.spamcop.net',
            side: 'ipv4',
            state: 'active',
          }),
        ).toBe(1);
        // The lists' counts, kept per worker in plain maps and read at the scrape, sum too: one
        // answer of the list to each check, and every query it answered on the wire.
        const lookups = exposition.samples.filter(
          (sample) =>
            sample.name === 'reputation_dnsbl_lookups_total' &&
            sample.labels.list === 'bl.spamcop.net' &&
            sample.labels.side === 'ipv4',
        );
        expect(lookups.reduce((sum, sample) => sum + sample.value, 0)).toBe(targets.length);
        const list = { list: 'bl.spamcop.net' };
        const queries = sampleValue(
          exposition,
          'reputation_dnsbl_query_duration_seconds_count',
          list,
        );
        // The four checks' queries and each worker's self-test (a test entry and a random name).
        expect(queries).toBeGreaterThanOrEqual(targets.length + 4);
        expect(
          sampleValue(exposition, 'reputation_dnsbl_query_duration_seconds_bucket', {
            ...list,
            le: '+Inf',
          }),
        ).toBe(queries);
        expect(exposition.types.get('reputation_dnsbl_query_duration_seconds')).toBe('histogram');
      }

      // New connections go to the workers in turn: every one of them knows the token and the count.
      for (let i = 0; i < 6; i++) {
        const response = await fetch(`${server.url}/ip/v1/${tokens[0]}`, { headers: alone });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
        const status = await fetch(`${server.url}/ip/v1/status`, { headers: alone });
        expect(await status.json()).toMatchObject({ dailyRemaining: 1 });
      }
      expect(await server.stop()).toBe(0);
      expect(server.lines.filter((line) => line.msg === 'shutting down').length).toBe(3);
    },
  );

  it('stops the start with one line from the primary when the store cannot be opened', async () => {
    const notAFolder = join(temporaryFolder(), 'file');
    writeFileSync(notAFolder, 'x');
    const failure = await failedStart({
      DNS_SERVERS: dns.address,
      WORKERS: '2',
      STORE_URL: `sqlite:${join(notAFolder, 'reputation.db')}`,
    });
    expect(expectOneLineFailure(failure)).toMatch(/^STORE_URL: /);
    expect(failure.stdout).toBe('');
  });

  it(
    'prints a taken port once, from the primary, not once per worker',
    { timeout: 60_000 },
    async () => {
      const taken = await takenPort();
      try {
        const failure = await failedStart({
          DNS_SERVERS: dns.address,
          WORKERS: '2',
          PORT: String(taken.port),
          STORE_URL: `sqlite:${join(temporaryFolder(), 'reputation.db')}`,
        });
        expect(expectOneLineFailure(failure)).toBe(
          `port ${taken.port} is in use on 127.0.0.1: stop the other process or set PORT`,
        );
      } finally {
        await taken.release();
      }
    },
  );
});
