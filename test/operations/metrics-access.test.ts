import { afterEach, describe, expect, it } from 'vitest';
import { type TestService, startTestService } from '../support/service.js';

/**
 * Who may read GET /metrics (docs/operations.md#who-may-read-metrics): loopback callers by
 * default, METRICS_ALLOW's ranges besides, each also with METRICS_TOKEN as a bearer token when it
 * is set; anyone else the ordinary 404 of an unknown route. The tests call from 127.0.0.1, and
 * stand for other callers through a proxy TRUST_PROXY believes.
 */

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(env: Record<string, string>): Promise<TestService> {
  service = await startTestService({ env });
  return service;
}

function metrics(s: TestService, headers: Record<string, string> = {}, method = 'GET') {
  return s.fetch(s.rootUrl('/metrics'), { method, headers });
}

/** Refused exactly as a path nobody serves is: status, headers that matter, body. */
async function expectUnknownRoute(s: TestService, response: Response): Promise<void> {
  const unknown = await s.fetch(s.rootUrl('/no-such-route'));
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toBe(unknown.headers.get('content-type'));
  expect(await response.json()).toEqual(await unknown.json());
}

const from = (address: string) => ({ 'x-forwarded-for': address });

describe('without METRICS_ALLOW or METRICS_TOKEN', () => {
  it('answers a loopback caller', async () => {
    const s = await start({});
    const response = await metrics(s);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('# TYPE reputation_checks_total counter');
  });

  it('answers any other caller 404, as an unknown route', async () => {
    const s = await start({ TRUST_PROXY: '1' });
    await expectUnknownRoute(s, await metrics(s, from('185.1.1.1')));
    // Another method tells a stranger nothing more.
    await expectUnknownRoute(s, await metrics(s, from('185.1.1.1'), 'POST'));
  });

  it('refuses a request relayed by a proxy TRUST_PROXY does not believe, though its peer is loopback', async () => {
    const s = await start({ TRUST_PROXY: 'none' });
    await expectUnknownRoute(s, await metrics(s, from('127.0.0.1')));
    await expectUnknownRoute(s, await metrics(s, { forwarded: 'for=185.1.1.1' }));
  });

  // The built-in rule is the socket's: a header that names a loopback address is anyone's to send.
  it.each([
    ['cloudflare', { 'cf-connecting-ip': '127.0.0.1' }],
    ['cloudflare', { 'cf-connecting-ip': '127.0.0.2' }],
    ['cloudflare', { 'cf-connecting-ip': '::1' }],
    ['1', { 'x-forwarded-for': '127.0.0.1' }],
    ['1', { 'x-forwarded-for': '127.0.0.9' }],
    ['2', { 'x-forwarded-for': '127.0.0.1, 127.0.0.3' }],
  ])(
    'refuses a request whose forwarding header names loopback, with TRUST_PROXY=%s and no token',
    async (trustProxy, headers) => {
      const s = await start({ TRUST_PROXY: trustProxy });
      await expectUnknownRoute(s, await metrics(s, headers));
      // The same socket without the header is the machine's own scraper.
      expect((await metrics(s)).status).toBe(200);
    },
  );

  it.each<Record<string, string>>([
    { 'x-real-ip': '127.0.0.1' },
    { 'true-client-ip': '127.0.0.1' },
    { via: '1.1 proxy' },
  ])('refuses a loopback socket that relays a forwarding header: %j', async (headers) => {
    const s = await start({});
    await expectUnknownRoute(s, await metrics(s, headers));
  });

  it('answers another method from an allowed caller 405, naming GET and HEAD', async () => {
    const s = await start({});
    const response = await metrics(s, {}, 'POST');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('METRICS_ALLOW', () => {
  it('answers callers in its ranges besides loopback, and no one else', async () => {
    const s = await start({ TRUST_PROXY: '1', METRICS_ALLOW: '185.1.1.0/24, 2a01:4f8::/32' });
    expect((await metrics(s, from('185.1.1.9'))).status).toBe(200);
    expect((await metrics(s, from('2a01:4f8:1::1'))).status).toBe(200);
    expect((await metrics(s)).status).toBe(200);
    await expectUnknownRoute(s, await metrics(s, from('185.1.2.9')));
  });
});

describe('METRICS_TOKEN', () => {
  const token = 'metrics-token-0123456789';

  it('answers an allowed caller only with Authorization: Bearer and the token', async () => {
    const s = await start({ METRICS_TOKEN: token });
    expect((await metrics(s, { authorization: `Bearer ${token}` })).status).toBe(200);
    // RFC 9110 §11.1: the scheme is case-insensitive.
    expect((await metrics(s, { authorization: `bearer ${token}` })).status).toBe(200);
    await expectUnknownRoute(s, await metrics(s));
    await expectUnknownRoute(s, await metrics(s, { authorization: `Bearer ${token}x` }));
    await expectUnknownRoute(s, await metrics(s, { authorization: `Bearer ${token.slice(1)}` }));
    await expectUnknownRoute(s, await metrics(s, { authorization: `Basic ${token}` }));
  });

  it('does not open the metrics to a caller outside the allowed ranges', async () => {
    const s = await start({ TRUST_PROXY: '1', METRICS_TOKEN: token });
    const bearer = { authorization: `Bearer ${token}` };
    await expectUnknownRoute(s, await metrics(s, { ...bearer, ...from('185.1.1.1') }));
  });
});
