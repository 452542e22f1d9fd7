import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { type FixtureDnsServer, startFixtureDnsServer } from '../../fixtures/dns-server.js';
import { dnsblWorld } from '../../fixtures/dnsbl-world.js';
import { parsePrometheusText, sampleValue } from '../support/prometheus-text.js';
import { killServerProcesses, startServerProcess } from '../support/server-process.js';

/**
 * GET /metrics under WORKERS=2 (src/node/cluster-metrics.ts): a real two-worker server on one
 * SQLite file. New connections go to the workers in turn, so each worker serves half the checks;
 * whichever worker takes a scrape answers the whole service's figures, summed by the primary.
 */

let dns: FixtureDnsServer;
beforeAll(async () => {
  dns = await startFixtureDnsServer({ zones: dnsblWorld(await loadZoneList(), {}) });
});
afterAll(() => dns.close());
afterEach(killServerProcesses);

/** A request on a connection of its own, so the primary hands it to the next worker. */
const alone = { connection: 'close' };

describe('WORKERS=2', () => {
  it(
    'answers every scrape with the sum of both workers, whichever worker takes it',
    { timeout: 60_000 },
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'cluster-metrics-'));
      const server = await startServerProcess(
        {
          DNS_SERVERS: dns.address,
          STORE_URL: `sqlite:${join(folder, 'reputation.db')}`,
          WORKERS: '2',
        },
        { listeners: 2 },
      );
      const targets = ['8.8.4.4', '8.8.8.8', '1.1.1.1', '9.9.9.9'];
      for (const target of targets) {
        const response = await fetch(`${server.url}/ip/v1`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...alone },
          body: JSON.stringify({ target }),
        });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
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
        // Each worker proves the lists itself; a list active in both is active once.
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
      expect(await server.stop()).toBe(0);
    },
  );
});
