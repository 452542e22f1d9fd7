import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureZone } from '../fixtures/dns-server.js';
import { type TestService, basePath, expectError, startTestService } from './support/service.js';

/**
 * The app's routing (docs/http-hardening.md#trailing-slashes-and-the-base-path): every route
 * answers its trailing-slash form as itself, whatever the method, and the base path answers with an
 * index of the tools.
 */

const zones: FixtureZone[] = [
  {
    origin: 'sender-slash.net',
    records: {
      'sender-slash.net': {
        A: ['185.50.0.1'],
        TXT: ['v=spf1 a -all'],
        NS: ['ns1.sender-slash.net'],
      },
      'ns1.sender-slash.net': { A: ['127.0.0.1'] },
      'pool.sender-slash.net': { A: ['185.50.0.2', '185.50.0.3'] },
      // A null MX (RFC 7505): the mail check connects nowhere, as a test never leaves 127.0.0.1.
      'mail.sender-slash.net': { MX: [{ exchange: '.', priority: 0 }], TXT: ['v=spf1 -all'] },
    },
  },
];

let service: TestService;
/** A token of each tool, for the routes that take one. */
const tokens: Record<string, string> = {};
/** What each POST route is sent. */
const bodies: Record<string, object> = {
  '/ip/v1': { target: '185.50.0.1' },
  '/domain/v1': { domain: 'sender-slash.net' },
  '/pool/v1/discover': { pool: 'pool.sender-slash.net' },
  '/pool/v1/check': { pool: 'pool.sender-slash.net', ips: ['185.50.0.2'] },
  '/mail/v1': { domain: 'mail.sender-slash.net' },
};

beforeAll(async () => {
  service = await startTestService({
    zones,
    env: (dns) => ({
      POOL_NS_PORT: String(dns.port),
      POOL_NS_ALLOW_NON_PUBLIC: 'true',
      DAILY_LIMIT: '100',
    }),
  });
  for (const [path, tool] of [
    ['/ip/v1', 'ip'],
    ['/domain/v1', 'domain'],
    ['/pool/v1/discover', 'pool'],
    ['/mail/v1', 'mail'],
  ] as const) {
    const response = await service.post(path, bodies[path]!);
    expect(response.status).toBe(200);
    tokens[tool] = ((await response.json()) as { token: string }).token;
  }
});
afterAll(() => service.close());

/**
 * Every route of the OpenAPI document, as [method, full path with its token or file filled in]:
 * the document's paths are relative to the base path its `servers` carries.
 */
async function documentedRoutes(): Promise<Array<[string, string]>> {
  const document = (await (await service.get('/openapi.json')).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const asset = /\/assets\/[^"]+\.css/.exec(
    await (await service.get('/', { Accept: 'text/html' })).text(),
  )?.[0];
  // A watch's routes act on one watch, some under its manage key, and a reports inbox's under its
  // key: test/tools/watch/routes.test.ts and test/tools/reports/ ask them with a trailing slash.
  const paths = Object.entries(document.paths).filter(
    ([path]) => !path.startsWith('/watch/') && !path.startsWith('/reports/'),
  );
  // A HEAD is its GET without the body (docs/openapi.md): asked once per route, not twice.
  return paths.flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => method !== 'head')
      .map((method): [string, string] => {
        const tool = /\/(ip|domain|pool|mail)\/v1/.exec(path)?.[1] ?? '';
        const filled = path
          .replace('{token}', tokens[tool] ?? '')
          .replace('/assets/{file}', asset ?? '');
        return [method.toUpperCase(), `${basePath}${filled === '/' ? '' : filled}`];
      }),
  );
}

function send(method: string, fullPath: string): Promise<Response> {
  const path = fullPath.slice(basePath.length).replace(/\/$/, '');
  const body = bodies[path];
  return service.fetch(service.url(fullPath.slice(basePath.length)), {
    method,
    ...(method === 'POST'
      ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
      : {}),
  });
}

describe('a trailing slash', () => {
  it('is answered as the route itself, on every documented route', async () => {
    const routes = await documentedRoutes();
    // 15 routes of the contract, the index, the OpenAPI document and the pages' files.
    expect(routes.length).toBeGreaterThanOrEqual(18);
    for (const [method, path] of routes) {
      const plain = await send(method, path);
      const slashed = await send(method, `${path}/`);
      const label = `${method} ${path}/`;
      expect(plain.status, `${method} ${path}`).toBe(200);
      expect(slashed.status, label).toBe(200);
      expect(slashed.headers.get('content-type'), label).toBe(plain.headers.get('content-type'));
      if (method === 'GET') {
        // The same bytes: a result, badge, card or page never changes.
        expect(Buffer.from(await slashed.arrayBuffer()), label).toEqual(
          Buffer.from(await plain.arrayBuffer()),
        );
      } else {
        // A check answered from the cache: the same token as the plain form's answer.
        const [first, second] = [await plain.json(), await slashed.json()] as Array<{
          token: string;
        }>;
        expect(second!.token, label).toBe(first!.token);
      }
    }
    // Every route twice, its cards drawn among them, on a machine the other suites share.
  }, 60_000);

  it('is answered for the OpenAPI document too', async () => {
    expect((await service.get('/openapi.json/')).status).toBe(200);
  });

  it('keeps a wrong method a 405 and an unknown path a 404', async () => {
    const wrong = await service.fetch(service.url('/ip/v1/status/'), { method: 'POST' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
    expect((await service.get('/ip/v2/')).status).toBe(404);
  });
});

describe('the base path', () => {
  it.each(['', '/'])('answers an index of the tools as JSON (%s)', async (suffix) => {
    const response = await service.fetch(`${service.url('')}${suffix}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const index = (await response.json()) as {
      openapi: string;
      tools: Array<{ tool: string; status?: string; checks: Array<{ path: string }> }>;
    };
    expect(index.openapi).toBe(`${basePath}/openapi.json`);
    expect(index.tools.map((tool) => tool.tool)).toEqual([
      'ip',
      'domain',
      'pool',
      'mail',
      'watch',
      'reports',
    ]);
    expect(index.tools.flatMap((tool) => tool.checks.map((check) => check.path))).toEqual([
      `${basePath}/ip/v1`,
      `${basePath}/domain/v1`,
      `${basePath}/pool/v1/discover`,
      `${basePath}/pool/v1/check`,
      `${basePath}/mail/v1`,
      `${basePath}/watch/v1`,
      `${basePath}/reports/v1`,
    ]);
    // Every status path it names answers (a watch counts on the IP and domain tools' quotas).
    for (const tool of index.tools.filter((entry) => entry.status !== undefined)) {
      expect((await service.fetch(service.url(tool.status!.slice(basePath.length)))).status).toBe(
        200,
      );
    }
  });

  it('answers other methods with 405', async () => {
    const response = await service.fetch(service.url(''), { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('an unknown path', () => {
  const notFound = { status: 'error', code: 'not_found', error: expect.any(String) };

  it.each([
    ['an unknown path under the base path', '/nope'],
    ['an unknown tool version', '/ip/v2/status'],
    ['a path below a token', '/ip/v1/AAAAAAAAAAAAAAAAAAAAAA/extra'],
  ])('404 not_found for %s', async (_, path) => {
    await expectError(await service.get(path), 404, notFound);
  });

  it('404 not_found outside the base path', async () => {
    const response = await service.fetch(
      service.url('/').replace('/tools/ip-reputation/', '/elsewhere'),
    );
    await expectError(response, 404, notFound);
  });
});
