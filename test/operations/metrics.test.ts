import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryZone } from '../../src/reputation/lists/dnsbl.js';
import { type DnsblZone, loadZoneList } from '../../src/reputation/lists/zones.js';
import { dnsblWorld } from '../../fixtures/dnsbl-world.js';
import { type Exposition, parsePrometheusText, sampleValue } from '../support/prometheus-text.js';
import { type TestService, startTestService } from '../support/service.js';

/**
 * GET /metrics on Node (docs/operations.md): the Prometheus text format, per-list, per-check,
 * store and card figures once checks have run, and never a target, token, caller address, key or
 * URL. Who may read it: test/operations/metrics-access.test.ts.
 */

const listedIp = '185.220.101.5';
const cleanIp = '8.8.4.4';
const otherIp = '1.1.1.1';
const callerAddress = '185.99.88.77';
const dqsKey = 'k3yfortheoperationstest';
const requestId = 'trace-operations-7f3a';

/** Spamhaus' lists, asked under their DQS names with the key (src/reputation/lists/dnsbl.ts). */
const isSpamhaus = (zone: DnsblZone) => queryZone(zone, { SPAMHAUS_DQS_KEY: 'key' }) !== zone.zone;

let service: TestService;
const tokens: string[] = [];

async function scrape(): Promise<{ text: string; exposition: Exposition }> {
  const response = await fetch(service.rootUrl('/metrics'));
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  return { text, exposition: parsePrometheusText(text) };
}

beforeAll(async () => {
  const zoneList = await loadZoneList();
  const dqs = zoneList
    .filter(isSpamhaus)
    .map((zone) => ({ ...zone, zone: queryZone(zone, { SPAMHAUS_DQS_KEY: dqsKey }) }));
  const zen = queryZone(
    zoneList.find((zone) => zone.zone === 'zen.spamhaus.org')!,
    { SPAMHAUS_DQS_KEY: dqsKey },
  );
  service = await startTestService({
    world: [
      ...dnsblWorld(zoneList, { [listedIp]: { 'bl.spamcop.net': ['127.0.0.2'] } }),
      ...dnsblWorld(dqs, { [listedIp]: { [zen]: ['127.0.0.2'] } }),
    ],
    env: { SPAMHAUS_DQS_KEY: dqsKey, DAILY_LIMIT: '2', TRUST_PROXY: '1' },
  });
  // As a caller behind one proxy: the address the metrics must never show.
  const asCaller = { 'x-forwarded-for': callerAddress, 'x-request-id': requestId };
  for (const target of [listedIp, cleanIp, cleanIp, otherIp, '10.0.0.1']) {
    const response = await service.post('/ip/v1', { target }, asCaller);
    const body = (await response.json()) as { token?: string };
    if (body.token) tokens.push(body.token);
  }
  const card = await service.get(`/ip/v1/share/${tokens[0]}/card`, asCaller);
  expect(card.status).toBe(200);
  await card.arrayBuffer();
  expect((await service.get(`/ip/v1/${tokens[0]}`, asCaller)).status).toBe(200);
}, 60_000);
afterAll(() => service.close());

describe('GET /metrics', () => {
  it('answers the Prometheus text format: every line a HELP, a TYPE or `name{labels} value`', async () => {
    const { exposition } = await scrape();
    expect(exposition.samples.length).toBeGreaterThan(100);
    // Every sample belongs to a family its TYPE line declares.
    for (const sample of exposition.samples) {
      const family = sample.name.replace(/_(bucket|sum|count)$/, '');
      expect(exposition.types.has(sample.name) || exposition.types.has(family), sample.name).toBe(
        true,
      );
    }
  });

  it('counts each check by tool and outcome: fresh, cached, refused by quota, a bad target', async () => {
    const { exposition } = await scrape();
    const checks = (outcome: string) =>
      sampleValue(exposition, 'reputation_checks_total', { tool: 'ip', outcome });
    expect(checks('fresh')).toBe(2);
    expect(checks('cached')).toBe(1);
    expect(checks('quota_exceeded')).toBe(1);
    expect(checks('invalid_target')).toBe(1);
  });

  it("counts each list's answer to each check, by list, side and outcome", async () => {
    const { exposition } = await scrape();
    const lookups = (list: string, outcome: string) =>
      sampleValue(exposition, 'reputation_dnsbl_lookups_total', { list, side: 'ipv4', outcome });
    expect(lookups('zen.spamhaus.org', 'listed')).toBe(1);
    expect(lookups('zen.spamhaus.org', 'clean')).toBe(1);
    expect(lookups('bl.spamcop.net', 'listed')).toBe(1);
    expect(lookups('bl.spamcop.net', 'clean')).toBe(1);
  });

  it("times each list's queries on the wire, self-tests included", async () => {
    const { exposition } = await scrape();
    const count = (list: string) =>
      sampleValue(exposition, 'reputation_dnsbl_query_duration_seconds_count', { list });
    // Its self-test (a test entry and a random name) and the two checks' queries.
    expect(count('zen.spamhaus.org')).toBeGreaterThanOrEqual(4);
    expect(count('bl.spamcop.net')).toBeGreaterThanOrEqual(4);
    const bucket = sampleValue(exposition, 'reputation_dnsbl_query_duration_seconds_bucket', {
      list: 'bl.spamcop.net',
      le: '+Inf',
    });
    expect(bucket).toBe(count('bl.spamcop.net'));
  });

  it('gives each side of each list its state, 1 for the state it is in and 0 for the others', async () => {
    const { exposition } = await scrape();
    const state = (list: string, side: string, name: string) =>
      sampleValue(exposition, 'reputation_dnsbl_list_state', { list, side, state: name });
    expect(state('zen.spamhaus.org', 'ipv4', 'active')).toBe(1);
    expect(state('zen.spamhaus.org', 'ipv4', 'disabled')).toBe(0);
    expect(state('zen.spamhaus.org', 'ipv6', 'active')).toBe(1);
    expect(state('dbl.spamhaus.org', 'domain', 'active')).toBe(1);
  });

  it('counts and times HTTP requests by the route pattern, never the raw path', async () => {
    const { exposition } = await scrape();
    const requests = (method: string, route: string, status: string) =>
      sampleValue(exposition, 'http_requests_total', { method, route, status });
    expect(requests('POST', '/tools/ip-reputation/ip/v1', '200')).toBe(3);
    expect(requests('POST', '/tools/ip-reputation/ip/v1', '429')).toBe(1);
    expect(requests('GET', '/tools/ip-reputation/ip/v1/:token', '200')).toBe(1);
    expect(requests('GET', '/tools/ip-reputation/ip/v1/share/:token/card', '200')).toBe(1);
    const routes = exposition.samples
      .filter((sample) => sample.name === 'http_request_duration_seconds_count')
      .map((sample) => sample.labels.route ?? '');
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) expect(route).toMatch(/^\/[\w/:*.-]*$/);
  });

  it('times store operations by backend and operation, and counts none failed', async () => {
    const { exposition } = await scrape();
    const count = (operation: string) =>
      sampleValue(exposition, 'reputation_store_operation_duration_seconds_count', {
        backend: 'memory',
        operation,
      });
    // A unit asked for per fresh check, the refused one past the limit too (one atomic step);
    // results saved and read.
    expect(count('incrementWithin')).toBe(3);
    expect(count('set')).toBeGreaterThanOrEqual(4);
    expect(count('get')).toBeGreaterThanOrEqual(4);
    expect(
      exposition.samples.filter((sample) => sample.name === 'reputation_store_errors_total'),
    ).toEqual([]);
  });

  it("counts and times card renders, and shows the card queue's depth", async () => {
    const { exposition } = await scrape();
    expect(sampleValue(exposition, 'reputation_card_renders_total', { outcome: 'drawn' })).toBe(1);
    expect(sampleValue(exposition, 'reputation_card_render_duration_seconds_count')).toBe(1);
    expect(sampleValue(exposition, 'reputation_card_queue_depth')).toBe(0);
  });

  it("exports Node's default process metrics and the watches' metrics", async () => {
    const { exposition } = await scrape();
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'reputation_watches_live',
      'reputation_watch_due_lag_seconds',
      'reputation_watch_deliveries_total',
      'reputation_connections_refused_total',
    ])
      expect(exposition.types.has(name), name).toBe(true);
  });

  it('shows no target, token, caller address, request id, key or URL', async () => {
    const { text, exposition } = await scrape();
    expect(tokens).toHaveLength(3);
    for (const secret of [
      listedIp,
      cleanIp,
      otherIp,
      '10.0.0.1',
      callerAddress,
      '127.0.0.1',
      requestId,
      dqsKey,
      ...tokens,
    ])
      expect(text).not.toContain(secret);
    for (const sample of exposition.samples)
      for (const value of Object.values(sample.labels)) expect(value).not.toMatch(/:\/\//);
  });
});
