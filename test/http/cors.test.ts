import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, startTestService } from '../support/service.js';

/** CORS_ORIGINS: which browser origins may read the API's answers (badges embed anywhere anyway). */

describe('with a list of origins', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ env: { CORS_ORIGINS: 'https://app.sender-one.com' } });
  });
  afterAll(() => service.close());

  it('allows a listed origin, varying on Origin, and exposes Retry-After and X-Request-Id', async () => {
    const response = await service.get('/ip/v1/status', { Origin: 'https://app.sender-one.com' });
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.sender-one.com');
    expect(response.headers.get('vary')).toMatch(/Origin/);
    expect(response.headers.get('access-control-expose-headers')).toBe('Retry-After, X-Request-Id');
  });

  it('puts the same headers on a fresh check, a cached one, GET by token and the badge', async () => {
    const origin = { Origin: 'https://app.sender-one.com' };
    const fresh = await service.post('/ip/v1', { target: '8.8.4.4' }, origin);
    const { token } = (await fresh.json()) as { token: string };
    const answers = [
      fresh,
      await service.post('/ip/v1', { target: '8.8.4.4' }, origin),
      await service.get(`/ip/v1/${token}`, origin),
      // As the embed snippets name it: without ?lang= it would vary on Accept-Language too.
      await service.get(`/ip/v1/share/${token}/badge.svg?lang=en`, origin),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe('https://app.sender-one.com');
      expect(answer.headers.get('access-control-expose-headers')).toBe('Retry-After, X-Request-Id');
      // Accept-Encoding joins it where the answer was large enough to be compressed.
      expect(answer.headers.get('vary')).toMatch(/^Origin(, Accept-Encoding)?$/);
    }
  });

  it('does not allow another origin', async () => {
    const response = await service.get('/ip/v1/status', { Origin: 'https://evil.sender-two.com' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a preflight for a listed origin with the allowed methods', async () => {
    const response = await fetch(service.url('/ip/v1'), {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.sender-one.com',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.sender-one.com');
    expect(response.headers.get('access-control-allow-methods')).toMatch(/POST/);
  });

  it('lists in a preflight only the methods of the path, and how long to keep it', async () => {
    const preflight = (path: string) =>
      fetch(service.url(path), {
        method: 'OPTIONS',
        headers: { Origin: 'https://app.sender-one.com', 'Access-Control-Request-Method': 'GET' },
      });
    const check = await preflight('/ip/v1');
    expect(check.headers.get('access-control-allow-methods')).toBe('POST');
    expect(check.headers.get('access-control-max-age')).toBe('7200');
    const status = await preflight('/ip/v1/status');
    expect(status.headers.get('access-control-allow-methods')).toBe('GET,HEAD');
    const discover = await preflight('/pool/v1/discover/');
    expect(discover.headers.get('access-control-allow-methods')).toBe('POST');
  });
});

describe('with the default', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it('allows any origin on answers and on errors', async () => {
    const ok = await service.get('/ip/v1/status', { Origin: 'https://anywhere.sender-one.com' });
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    const error = await service.post(
      '/ip/v1',
      { target: '10.0.0.1' },
      { Origin: 'https://x.sender-one.com' },
    );
    expect(error.status).toBe(400);
    expect(error.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('allows any origin on a cached check and on GET by token, without Vary: Origin', async () => {
    const first = await service.post('/ip/v1', { target: '8.8.4.4' });
    const { token } = (await first.json()) as { token: string };
    const cached = await service.post('/ip/v1', { target: '8.8.4.4' });
    expect(((await cached.json()) as { from_cache: boolean }).from_cache).toBe(true);
    for (const answer of [cached, await service.get(`/ip/v1/${token}`)]) {
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(answer.headers.get('access-control-expose-headers')).toBe('Retry-After, X-Request-Id');
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.headers.get('vary') ?? '').not.toMatch(/Origin/);
    }
  });
});
