import { afterEach, describe, expect, it } from 'vitest';
import type { FixtureZone } from '../../fixtures/dns-server.js';
import type { IpCheckAnswer, QuotaStatus } from '../support/responses.js';
import { type TestService, startTestService } from '../support/service.js';

/**
 * The quota rules of docs/DESIGN.md through HTTP, on an injected clock: per tool, per caller, per UTC
 * day; a fresh check costs one unit, a cached one none, one the service failed is given back.
 */

const zones: FixtureZone[] = [
  { origin: 'sender-fixture.net', records: { 'mail.sender-fixture.net': { A: ['185.12.34.56'] } } },
  { origin: 'broken-dns.net', behaviour: 'servfail' },
];

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(env: Record<string, string>, now: Date): Promise<TestService> {
  service = await startTestService({ zones, env, now });
  return service;
}

/** A header naming the caller, believed with TRUST_PROXY=1. */
const from = (address: string) => ({ 'x-forwarded-for': address });

async function remaining(s: TestService, headers: Record<string, string> = {}): Promise<number> {
  const response = await s.get('/ip/v1/status', headers);
  return ((await response.json()) as QuotaStatus).dailyRemaining;
}

async function checkStatus(
  s: TestService,
  target: string,
  headers: Record<string, string> = {},
): Promise<number> {
  return (await s.post('/ip/v1', { target }, headers)).status;
}

describe('daily quota', () => {
  it('counts each fresh check down by one, in the POST answer and in the status', async () => {
    const s = await start({ DAILY_LIMIT: '3' }, new Date('2026-05-10T12:00:00Z'));
    expect(await remaining(s)).toBe(3);
    const first = (await (await s.post('/ip/v1', { target: '8.8.4.4' })).json()) as IpCheckAnswer;
    expect(first).toMatchObject({ dailyLimit: 3, dailyRemaining: 2 });
    const second = (await (await s.post('/ip/v1', { target: '8.8.8.8' })).json()) as IpCheckAnswer;
    expect(second.dailyRemaining).toBe(1);
    expect(await remaining(s)).toBe(1);
  });

  it('answers 429 once exhausted, with Retry-After the seconds to the next UTC midnight', async () => {
    const s = await start({ DAILY_LIMIT: '2' }, new Date('2026-05-10T23:59:30.250Z'));
    expect(await checkStatus(s, '8.8.4.4')).toBe(200);
    expect(await checkStatus(s, '8.8.8.8')).toBe(200);
    const refused = await s.post('/ip/v1', { target: '1.1.1.1' });
    expect(refused.status).toBe(429);
    // 29.75 s to midnight, rounded up: a client that waits that long is not refused again.
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await refused.json()).toMatchObject({
      code: 'quota_exceeded',
      dailyLimit: 2,
      dailyRemaining: 0,
    });
    // A refused check costs nothing: the count stays at the limit, not above it.
    expect(await remaining(s)).toBe(0);
  });

  it('resets at the UTC day rollover', async () => {
    const s = await start({ DAILY_LIMIT: '1' }, new Date('2026-05-10T23:59:59.900Z'));
    expect(await checkStatus(s, '8.8.4.4')).toBe(200);
    expect(await checkStatus(s, '8.8.8.8')).toBe(429);
    s.setNow(new Date('2026-05-11T00:00:00.000Z'));
    expect(await remaining(s)).toBe(1);
    expect(await checkStatus(s, '8.8.8.8')).toBe(200);
    expect(await checkStatus(s, '1.1.1.1')).toBe(429);
  });

  it('counts by the UTC day, not the local one', async () => {
    // 22:30 UTC on the 10th is already the 11th in most of Asia; the count must not reset yet.
    const s = await start({ DAILY_LIMIT: '1' }, new Date('2026-05-10T01:00:00Z'));
    expect(await checkStatus(s, '8.8.4.4')).toBe(200);
    s.setNow(new Date('2026-05-10T22:30:00Z'));
    expect(await checkStatus(s, '8.8.8.8')).toBe(429);
    expect((await s.post('/ip/v1', { target: '9.9.9.9' })).headers.get('retry-after')).toBe(
      String(90 * 60),
    );
  });

  it('keeps separate counts per caller', async () => {
    const s = await start({ DAILY_LIMIT: '1', TRUST_PROXY: '1' }, new Date('2026-05-10T12:00:00Z'));
    expect(await checkStatus(s, '8.8.4.4', from('185.1.1.1'))).toBe(200);
    expect(await checkStatus(s, '8.8.8.8', from('185.1.1.1'))).toBe(429);
    expect(await remaining(s, from('185.2.2.2'))).toBe(1);
    expect(await checkStatus(s, '8.8.8.8', from('185.2.2.2'))).toBe(200);
  });

  it('counts IPv6 callers per /64', async () => {
    const s = await start({ DAILY_LIMIT: '2', TRUST_PROXY: '1' }, new Date('2026-05-10T12:00:00Z'));
    expect(await checkStatus(s, '8.8.4.4', from('2a01:4f8:1:2::1'))).toBe(200);
    // Another address in the same /64 is the same caller.
    expect(await checkStatus(s, '8.8.8.8', from('2a01:4f8:1:2:aaaa:bbbb:cccc:dddd'))).toBe(200);
    expect(await checkStatus(s, '1.1.1.1', from('2a01:4f8:1:2::ffff'))).toBe(429);
    // The neighbouring /64 is someone else.
    expect(await remaining(s, from('2a01:4f8:1:3::1'))).toBe(2);
    expect(await checkStatus(s, '1.1.1.1', from('2a01:4f8:1:3::1'))).toBe(200);
  });

  it('keeps separate counts per tool', async () => {
    const s = await start({ DAILY_LIMIT: '1' }, new Date('2026-05-10T12:00:00Z'));
    expect(await checkStatus(s, '8.8.4.4')).toBe(200);
    expect(await remaining(s)).toBe(0);
    for (const tool of ['domain', 'pool']) {
      const status = await s.get(`/${tool}/v1/status`);
      expect(status.status).toBe(200);
      expect(((await status.json()) as QuotaStatus).dailyRemaining).toBe(1);
    }
  });

  it('charges nothing for an answer from the result cache, even when the quota is used up', async () => {
    const s = await start({ DAILY_LIMIT: '1' }, new Date('2026-05-10T12:00:00Z'));
    const first = (await (await s.post('/ip/v1', { target: '8.8.4.4' })).json()) as IpCheckAnswer;
    expect(first.dailyRemaining).toBe(0);
    const repeat = await s.post('/ip/v1', { target: '8.8.4.4' });
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toMatchObject({ from_cache: true, dailyRemaining: 0 });
    expect(await checkStatus(s, '8.8.8.8')).toBe(429);
  });

  it('gives the unit back when DNS fails the check, but not for a bad target found by DNS', async () => {
    const s = await start({ DAILY_LIMIT: '5' }, new Date('2026-05-10T12:00:00Z'));
    const failed = await s.post('/ip/v1', { target: 'mail.broken-dns.net' });
    expect(failed.status).toBe(503);
    expect(await failed.json()).toMatchObject({ code: 'dns_unavailable', dailyRemaining: 5 });
    expect(await remaining(s)).toBe(5);
    const missing = await s.post('/ip/v1', { target: 'nowhere.sender-fixture.net' });
    expect(missing.status).toBe(400);
    expect(await remaining(s)).toBe(4);
  });

  it('charges nothing for a request refused before the check (bad body, bad target)', async () => {
    const s = await start({ DAILY_LIMIT: '5' }, new Date('2026-05-10T12:00:00Z'));
    expect((await s.post('/ip/v1', '{')).status).toBe(400);
    expect((await s.post('/ip/v1', { target: '10.0.0.1' })).status).toBe(400);
    expect((await s.post('/ip/v1', {})).status).toBe(400);
    expect(await remaining(s)).toBe(5);
  });

  it('lets exactly the limit through when checks arrive at once', async () => {
    const s = await start({ DAILY_LIMIT: '5' }, new Date('2026-05-10T12:00:00Z'));
    const targets = Array.from({ length: 12 }, (_, i) => `185.20.30.${i + 1}`);
    const statuses = await Promise.all(targets.map((target) => checkStatus(s, target)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    expect(await remaining(s)).toBe(0);
  });
});
