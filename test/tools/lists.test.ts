import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { keylessZoneList } from '../../fixtures/keyless-lists.js';
import { type TestService, startTestService } from '../support/service.js';
import type { ListsAnswer } from '../support/responses.js';

/** GET {BASE_PATH}/lists: every configured list's health, over real HTTP and the fixture DNS. */

/** The service runs without list keys: it shows every list, and asks the keyless ones. */
const allZones = await loadZoneList();
const zones = await keylessZoneList();
const isKeyed = (zone: string) => allZones.some((entry) => entry.zone === zone && entry.key);
const fields = [
  'zone',
  'name',
  'type',
  'severity',
  'allowlist',
  'key',
  'lists',
  'policy',
  'source',
  'lookup_url',
  'delist_url',
  'state',
  'reason',
  'test_entry',
  'last_self_test',
  'last_self_test_result',
  'answers_last_hour',
  'timeouts_last_hour',
  'latency_ms',
  'ipv6',
];

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ latencyMs: 5 });
});
afterAll(() => service.close());

async function lists(): Promise<ListsAnswer> {
  const response = await service.get('/lists');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as ListsAnswer;
}

describe('GET /lists', () => {
  it('answers every list of the zone list, each keyless one active after its self-test, and no reason while configured', async () => {
    const body = await lists();
    expect(Object.keys(body).sort()).toEqual(['configured', 'lists']);
    expect(body.configured).toBe(true);
    expect(body.lists.map((list) => list.zone)).toEqual(allZones.map((zone) => zone.zone));
    for (const list of body.lists) {
      expect(Object.keys(list).sort()).toEqual([...fields].sort());
      if (isKeyed(list.zone as string)) continue;
      expect(list).toMatchObject({
        state: 'active',
        reason: expect.any(String),
        last_self_test: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        last_self_test_result: 'passed',
      });
    }
    expect(body.lists.find((list) => list.zone === 'multi.surbl.org')).toMatchObject({
      name: 'SURBL multi',
      type: 'domain',
      test_entry: 'test.surbl.org',
      ipv6: null,
    });
  });

  it("gives each list's source, policy, lookup and delisting pages from the zone list", async () => {
    const body = await lists();
    const zen = body.lists.find((list) => list.zone === 'zen.spamhaus.org');
    expect(zen).toMatchObject({
      allowlist: false,
      key: null,
      source: expect.stringMatching(/^https:\/\//),
      policy: { en: expect.any(String), ru: expect.any(String) },
      lists: { en: expect.any(String), ru: expect.any(String) },
      lookup_url: expect.stringContaining('{'),
      delist_url: expect.stringMatching(/^https:\/\//),
    });
    const allowlists = body.lists.filter((list) => list.allowlist === true);
    expect(allowlists.map((list) => list.zone).sort()).toEqual(
      allZones
        .filter((zone) => zone.allowlist)
        .map((zone) => zone.zone)
        .sort(),
    );
  });

  it('shows the lists that answer only with a key as disabled, naming the variable, and never asks them', async () => {
    const body = await lists();
    const keyed = allZones.filter((zone) => zone.key !== undefined);
    expect(keyed.length).toBeGreaterThan(0);
    for (const zone of keyed) {
      const list = body.lists.find((entry) => entry.zone === zone.zone);
      expect(list).toMatchObject({
        state: 'disabled',
        key: zone.key!.variable,
        reason: expect.stringContaining(`set ${zone.key!.variable}`),
        last_self_test: null,
      });
    }
    const check = await service.post('/ip/v1', { target: '8.8.4.4' });
    expect(check.status).toBe(200);
    const asked = (await service.dnsQueries()).map((query) => query.name);
    expect(asked.filter((name) => keyed.some((zone) => name.endsWith(`.${zone.zone}`)))).toEqual(
      [],
    );
  });

  it('shows the IPv6 side of the lists that cover IPv6, proven by its own test entry, and null for the others', async () => {
    const body = await lists();
    const covering = body.lists.filter((list) => list.ipv6 !== null);
    expect(covering.map((list) => list.zone)).toEqual(
      allZones.filter((zone) => zone.ipv6 !== undefined).map((zone) => zone.zone),
    );
    const asked = covering.filter((list) => zones.some((zone) => zone.zone === list.zone));
    expect(asked.length).toBeGreaterThan(0);
    for (const list of asked) {
      expect(list.ipv6).toMatchObject({
        state: 'active',
        test_entry: '::ffff:7f00:2',
        last_self_test_result: 'passed',
        source: expect.stringMatching(/^https?:\/\//),
      });
    }
    for (const list of covering.filter((entry) => isKeyed(entry.zone as string)))
      expect(list.ipv6).toMatchObject({ state: 'disabled', last_self_test: null });
    expect(covering.find((list) => list.zone === 'bl.spameatingmonkey.net')?.ipv6).toMatchObject({
      zone: 'bl.ipv6.spameatingmonkey.net',
      name: 'Spam Eating Monkey SEM-IPV6BL',
    });
  });

  it('counts the answers of the last hour and their latency on the wire', async () => {
    const check = await service.post('/ip/v1', { target: '8.8.4.4' });
    expect(check.status).toBe(200);
    const zenList = async () =>
      (await lists()).lists.find((list) => list.zone === 'zen.spamhaus.org')!;
    // The self-test's three probes, the check's look-up, and perhaps the check's confirmation. On
    // Workers a check's look-ups reach the monitor after its answer, and an isolate reads the
    // monitor's view once a second (docs/edge.md): they count within two seconds.
    await expect
      .poll(async () => (await zenList()).answers_last_hour, { timeout: 2500, interval: 200 })
      .toBeGreaterThanOrEqual(4);
    const zen = await zenList();
    expect(zen.timeouts_last_hour).toBe(0);
    const latency = zen.latency_ms as { p50: number; p95: number };
    expect(latency.p50).toBeGreaterThanOrEqual(4);
    expect(latency.p95).toBeGreaterThanOrEqual(latency.p50);
  });

  it('is in the OpenAPI document, its states documented', async () => {
    const document = (await (await service.get('/openapi.json')).json()) as {
      paths: Record<string, { get?: unknown }>;
      components: { schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }> };
    };
    // Relative to the base path, which the document's `servers` carries.
    expect(document.paths['/lists']?.get).toBeDefined();
    expect(document.components.schemas.ListHealth?.properties?.state?.enum).toEqual([
      'active',
      'on_hold',
      'disabled',
    ]);
    expect(document.components.schemas.QuotaStatus?.properties?.reason).toBeDefined();
  });

  it('answers other methods with 405', async () => {
    const response = await service.fetch(service.url('/lists'), { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('GET');
  });
});
