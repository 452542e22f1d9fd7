import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, startTestService } from '../support/service.js';

/**
 * GET /healthz and /readyz at the root path, on the Node server and inside workerd
 * (docs/operations.md): liveness while the process serves, readiness while the lists are trusted
 * and the store answers, both outside every quota and captcha. The store going away and coming
 * back: test/operations/redis-readiness.test.ts.
 */

describe('a configured service', () => {
  let service: TestService;
  beforeAll(async () => {
    // One check a day and a captcha due from the first: neither touches these routes.
    service = await startTestService({
      env: {
        DAILY_LIMIT: '1',
        CAPTCHA_PROVIDER: 'turnstile',
        CAPTCHA_SITE_KEY: 'site-key',
        CAPTCHA_SECRET: 'secret',
        CAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/siteverify',
      },
    });
  });
  afterAll(() => service.close());

  it('answers /healthz 200 at the root path, outside BASE_PATH, never cached', async () => {
    const response = await service.fetch(service.rootUrl('/healthz'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect((await service.fetch(service.url('/healthz'))).status).toBe(404);
  });

  it('answers /readyz 200 while the lists are trusted and the store answers', async () => {
    const response = await service.fetch(service.rootUrl('/readyz'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ready: true, configured: true, store: 'up' });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('answers both as often as asked, without a captcha, past the daily limit', async () => {
    await service.post('/ip/v1', { target: '8.8.4.4' });
    for (let i = 0; i < 3; i++) {
      expect((await service.fetch(service.rootUrl('/healthz'))).status).toBe(200);
      expect((await service.fetch(service.rootUrl('/readyz'))).status).toBe(200);
    }
  });

  it('answers HEAD as GET, and another method 405 naming GET and HEAD', async () => {
    const head = await service.fetch(service.rootUrl('/readyz'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    const post = await service.fetch(service.rootUrl('/healthz'), { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(await post.json()).toMatchObject({ status: 'error', code: 'method_not_allowed' });
  });
});

describe('a service whose lists cannot be trusted', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ deadDns: true });
  });
  afterAll(() => service.close());

  it('answers /readyz 503 with the reason, and /healthz 200', async () => {
    const ready = await service.fetch(service.rootUrl('/readyz'));
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(await ready.json()).toEqual({
      ready: false,
      configured: false,
      store: 'up',
      reason: expect.stringMatching(/resolver/i),
    });
    expect((await service.fetch(service.rootUrl('/healthz'))).status).toBe(200);
  });

  it('tells the operator to set the variable this runtime reads: DOH_URL over DoH, else DNS_SERVERS', async () => {
    // A service that asks only its resolvers runs over DoH (the Worker): DNS_SERVERS means nothing there.
    const [setting, other] = service.asksNameServers
      ? ['DNS_SERVERS', 'DOH_URL']
      : ['DOH_URL', 'DNS_SERVERS'];
    const { reason } = (await (await service.get('/ip/v1/status')).json()) as { reason: string };
    expect(reason).toContain(setting);
    expect(reason).not.toContain(other);
  });
});
