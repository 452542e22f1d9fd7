import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, startTestService } from '../support/service.js';

/**
 * X-Request-Id (docs/operations.md): on every answer, the caller's when it is 1 to 128 characters
 * of letters, digits, `.`, `_` and `-`, else a new one; and the one JSON line each request is
 * logged as. On the Node server and inside workerd. The connection cap's 503: test/server.test.ts.
 */

let service: TestService;
let token: string;
beforeAll(async () => {
  service = await startTestService();
  const made = await service.post('/ip/v1', { target: '8.8.4.4' });
  token = ((await made.json()) as { token: string }).token;
});
afterAll(() => service.close());

const generated = /^[0-9a-f]{32}$/;

describe('X-Request-Id', () => {
  it.each(['a', 'trace.id_-9', 'A'.repeat(128)])('answers the caller’s own id %#', async (id) => {
    const response = await service.get('/ip/v1/status', { 'x-request-id': id });
    expect(response.headers.get('x-request-id')).toBe(id);
  });

  it.each(['A'.repeat(129), 'two words', 'a/b', 'a;b', ''])(
    'replaces a malformed one with a new random id %#',
    async (id) => {
      const response = await service.get('/ip/v1/status', { 'x-request-id': id });
      expect(response.headers.get('x-request-id')).toMatch(generated);
    },
  );

  it('gives each request without one a new id', async () => {
    const ids = await Promise.all(
      [1, 2, 3].map(async () => (await service.get('/ip/v1/status')).headers.get('x-request-id')),
    );
    for (const id of ids) expect(id).toMatch(generated);
    expect(new Set(ids).size).toBe(3);
  });

  it('is on every answer: errors, 404s, 405s, 304s, pages, images, preflights, health', async () => {
    const html = { accept: 'text/html' };
    const etag = (await service.get(`/ip/v1/${token}`)).headers.get('etag')!;
    const answers = {
      'a bad body': await service.post('/ip/v1', '{'),
      'a 404': await service.get('/nowhere'),
      'an HTML 404': await service.get('/nowhere', html),
      'a 405': await service.post('/ip/v1/status', {}),
      'a 304': await service.get(`/ip/v1/${token}`, { 'if-none-match': etag }),
      'the check page': await service.get('/', html),
      'a share page': await service.get(`/ip/v1/share/${token}`, html),
      'a badge': await service.get(`/ip/v1/share/${token}/badge.svg`),
      'a card': await service.get(`/ip/v1/share/${token}/card`),
      'a preflight': await service.fetch(service.url('/ip/v1'), {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      }),
      '/healthz': await service.fetch(service.rootUrl('/healthz')),
      'an unknown root path': await service.fetch(service.rootUrl('/nowhere')),
    };
    expect(answers['a 304'].status).toBe(304);
    for (const [what, response] of Object.entries(answers)) {
      expect(response.headers.get('x-request-id'), what).toMatch(generated);
      await response.arrayBuffer();
    }
  });

  it('is exposed to browsers by CORS', async () => {
    const response = await service.get('/ip/v1/status', { origin: 'https://app.example' });
    expect(response.headers.get('access-control-expose-headers')).toMatch(/\bX-Request-Id\b/);
  });
});

describe('the request log', () => {
  it('writes one JSON line per request: its id, method, route pattern, status, duration and caller hashed', async () => {
    const id = 'trace-log-line-1';
    expect((await service.get(`/ip/v1/${token}`, { 'x-request-id': id })).status).toBe(200);
    await expect.poll(() => linesOf(id)).toHaveLength(1);
    const [line] = linesOf(id);
    expect(Object.keys(line!).sort()).toEqual(
      ['time', 'level', 'msg', 'requestId', 'method', 'route', 'status', 'ms', 'caller'].sort(),
    );
    expect(line).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      route: '/tools/ip-reputation/ip/v1/:token',
      status: 200,
      ms: expect.any(Number),
      caller: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(JSON.stringify(line)).not.toContain(token);
    expect(JSON.stringify(line)).not.toContain('127.0.0.1');
  });

  it("adds the error's code to the line of an error answer", async () => {
    const id = 'trace-log-line-2';
    await service.post('/ip/v1', { target: '10.0.0.1' }, { 'x-request-id': id });
    await expect.poll(() => linesOf(id)).toHaveLength(1);
    expect(linesOf(id)[0]).toMatchObject({
      route: '/tools/ip-reputation/ip/v1',
      status: 400,
      code: 'invalid_target',
    });
  });

  it('hashes the same caller to the same text', async () => {
    await service.get('/ip/v1/status', { 'x-request-id': 'trace-same-1' });
    await service.get('/ip/v1/status', { 'x-request-id': 'trace-same-2' });
    await expect.poll(() => linesOf('trace-same-2')).toHaveLength(1);
    expect(linesOf('trace-same-1')[0]!.caller).toBe(linesOf('trace-same-2')[0]!.caller);
  });
});

function linesOf(requestId: string): Record<string, unknown>[] {
  return service.logs
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.requestId === requestId);
}
