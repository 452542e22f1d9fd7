import { afterEach, describe, expect, it } from 'vitest';
import { type TestService, startTestService } from '../support/service.js';

/**
 * Who the caller is, over real HTTP from 127.0.0.1: the socket peer unless TRUST_PROXY says which
 * forwarding header to believe. Observed the way it matters: whose quota a check is counted on,
 * and the caller the request log names (hashed, as it writes them).
 */

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(trustProxy: string, env: Record<string, string> = {}): Promise<TestService> {
  service = await startTestService({
    env: { TRUST_PROXY: trustProxy, DAILY_LIMIT: '10', ...env },
  });
  return service;
}

async function remaining(s: TestService, headers: Record<string, string> = {}): Promise<number> {
  const response = await s.get('/ip/v1/status', headers);
  return ((await response.json()) as { dailyRemaining: number }).dailyRemaining;
}

/** The caller of the last logged request, hashed as the log writes it. */
function lastLoggedCaller(s: TestService): string | undefined {
  const requests = s.logs
    .map((line) => JSON.parse(line) as { msg: string; caller?: string })
    .filter((entry) => entry.msg === 'request');
  return requests.at(-1)?.caller;
}

describe('TRUST_PROXY=none', () => {
  it('ignores X-Forwarded-For and CF-Connecting-IP: the quota is counted on the socket peer', async () => {
    const s = await start('none');
    const spoofed = { 'x-forwarded-for': '185.1.1.1', 'cf-connecting-ip': '185.2.2.2' };
    expect((await s.post('/ip/v1', { target: '8.8.4.4' }, spoofed)).status).toBe(200);
    expect(lastLoggedCaller(s)).toBe(await s.callerHash('127.0.0.1'));
    // Every spelling of "someone else" lands on the same count as no header at all.
    expect(await remaining(s)).toBe(9);
    expect(await remaining(s, { 'x-forwarded-for': '185.3.3.3' })).toBe(9);
    expect(await remaining(s, { 'cf-connecting-ip': '185.4.4.4' })).toBe(9);
  });
});

describe('TRUST_PROXY as a hop count', () => {
  it('with 1 hop, believes the right-most X-Forwarded-For entry, the one the proxy added', async () => {
    const s = await start('1');
    const headers = { 'x-forwarded-for': '185.9.9.9, 185.1.1.1' };
    expect((await s.post('/ip/v1', { target: '8.8.4.4' }, headers)).status).toBe(200);
    expect(lastLoggedCaller(s)).toBe(await s.callerHash('185.1.1.1'));
    expect(await remaining(s, { 'x-forwarded-for': '185.1.1.1' })).toBe(9);
    // The forged left-most entry and the peer itself are other callers.
    expect(await remaining(s, { 'x-forwarded-for': '185.9.9.9' })).toBe(10);
    expect(await remaining(s)).toBe(10);
  });

  it('with 2 hops, steps over the nearer proxy', async () => {
    const s = await start('2');
    await s.get('/ip/v1/status', { 'x-forwarded-for': '185.9.9.9, 185.1.1.1, 10.0.0.5' });
    expect(lastLoggedCaller(s)).toBe(await s.callerHash('185.1.1.1'));
  });

  it('falls back to the peer when the header is absent or not an address', async () => {
    const s = await start('1');
    await s.get('/ip/v1/status');
    expect(lastLoggedCaller(s)).toBe(await s.callerHash('127.0.0.1'));
    await s.get('/ip/v1/status', { 'x-forwarded-for': 'not-an-address' });
    expect(lastLoggedCaller(s)).toBe(await s.callerHash('127.0.0.1'));
  });

  it('counts an IPv6 client from X-Forwarded-For per /64', async () => {
    const s = await start('1');
    await s.post('/ip/v1', { target: '8.8.4.4' }, { 'x-forwarded-for': '2a01:4f8:1:2::1' });
    expect(lastLoggedCaller(s)).toBe(await s.callerHash('2a01:4f8:1:2::1'));
    expect(await remaining(s, { 'x-forwarded-for': '2a01:4f8:1:2::99' })).toBe(9);
    expect(await remaining(s, { 'x-forwarded-for': '2a01:4f8:1:9::1' })).toBe(10);
  });
});

describe('TRUST_PROXY as a CIDR list', () => {
  it('walks X-Forwarded-For from the peer through trusted ranges to the first untrusted address', async () => {
    const s = await start('127.0.0.1/32, 10.0.0.0/8');
    const headers = { 'x-forwarded-for': '185.9.9.9, 185.1.1.1, 10.20.30.40' };
    expect((await s.post('/ip/v1', { target: '8.8.4.4' }, headers)).status).toBe(200);
    expect(lastLoggedCaller(s)).toBe(await s.callerHash('185.1.1.1'));
    expect(await remaining(s, { 'x-forwarded-for': '185.1.1.1' })).toBe(9);
  });

  it('ignores X-Forwarded-For when the peer is not in a trusted range', async () => {
    const s = await start('10.0.0.0/8');
    await s.get('/ip/v1/status', { 'x-forwarded-for': '185.1.1.1' });
    expect(lastLoggedCaller(s)).toBe(await s.callerHash('127.0.0.1'));
  });
});

describe('one forwarded-header family', () => {
  it('reads X-Forwarded-For by default and never a client’s Forwarded', async () => {
    const s = await start('1');
    await s.get('/ip/v1/status', { forwarded: 'for=185.9.9.9', 'x-forwarded-for': '185.7.7.7' });
    expect(lastLoggedCaller(s)).toBe(await s.callerHash('185.7.7.7'));
    await s.get('/ip/v1/status', { forwarded: 'for=185.9.9.9' });
    expect(lastLoggedCaller(s)).toBe(await s.callerHash('127.0.0.1'));
  });

  it('with FORWARDED_HEADERS=forwarded, reads the for parameter of Forwarded and never X-Forwarded-For', async () => {
    const s = await start('1', { FORWARDED_HEADERS: 'forwarded' });
    await s.get('/ip/v1/status', {
      forwarded: 'for=185.1.1.1, for="[2001:db8:cafe::17]:4711"',
      'x-forwarded-for': '185.7.7.7',
    });
    expect(lastLoggedCaller(s)).toBe(await s.callerHash('2001:db8:cafe::17'));
    await s.get('/ip/v1/status', { 'x-forwarded-for': '185.7.7.7' });
    expect(lastLoggedCaller(s)).toBe(await s.callerHash('127.0.0.1'));
  });
});

describe('TRUST_PROXY=cloudflare', () => {
  it('believes CF-Connecting-IP and ignores X-Forwarded-For', async () => {
    const s = await start('cloudflare');
    const headers = { 'cf-connecting-ip': '185.7.7.7', 'x-forwarded-for': '185.8.8.8' };
    expect((await s.post('/ip/v1', { target: '8.8.4.4' }, headers)).status).toBe(200);
    expect(lastLoggedCaller(s)).toBe(await s.callerHash('185.7.7.7'));
    expect(await remaining(s, { 'cf-connecting-ip': '185.7.7.7' })).toBe(9);
    expect(await remaining(s, { 'x-forwarded-for': '185.7.7.7' })).toBe(10);
  });

  it('falls back to the peer when CF-Connecting-IP is not an address', async () => {
    const s = await start('cloudflare');
    await s.get('/ip/v1/status', { 'cf-connecting-ip': '<script>' });
    expect(lastLoggedCaller(s)).toBe(await s.callerHash('127.0.0.1'));
  });
});

describe('IPv6 callers checking IPv6 targets', () => {
  it('count per /64 and pay for every fresh IPv6 target, whatever its spelling, up to the limit', async () => {
    service = await startTestService({
      env: { TRUST_PROXY: 'cloudflare', DAILY_LIMIT: '2' },
    });
    const s = service;
    const from = (address: string) => ({ 'cf-connecting-ip': address });
    const post = (target: string, caller: string) => s.post('/ip/v1', { target }, from(caller));
    // Two addresses of one /64 are one caller: the second's check costs the same counter.
    expect((await post('2a00:1450:4001:80b::1', '2a01:4f8:1:2::1')).status).toBe(200);
    expect((await post('2a00:1450:4001:80b::2', '2a01:4f8:1:2:ffff::7')).status).toBe(200);
    // Another spelling of a checked address is the same request: cached, free.
    const cached = await post('2A00:1450:4001:080B:0:0:0:1', '2a01:4f8:1:2::42');
    expect(cached.status).toBe(200);
    expect((await cached.json()) as { from_cache: boolean }).toMatchObject({ from_cache: true });
    // A fresh address is a fresh check: past the limit, 429 for every address of the /64.
    const refused = await post('2a00:1450:4001:80b::3', '2a01:4f8:1:2::99');
    expect(refused.status).toBe(429);
    expect(await remaining(s, from('2a01:4f8:1:2::1234'))).toBe(0);
    // The neighbouring /64 is someone else, with its own two checks.
    expect(await remaining(s, from('2a01:4f8:1:3::1'))).toBe(2);
    // The IPv4-mapped form a dual-stack socket reports is the IPv4 caller, not a new one.
    expect((await post('2a00:1450:4001:80b::4', '185.1.1.1')).status).toBe(200);
    expect(await remaining(s, from('::ffff:185.1.1.1'))).toBe(1);
  });
});
