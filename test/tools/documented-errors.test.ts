import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoWorld } from '../../scripts/demo-world.js';
import { errorRecords } from '../../src/http/errors.js';
import { guardErrors } from '../../src/http/guard.js';
import { jsonBodyErrors } from '../../src/http/json-body.js';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import {
  type CaptchaProviderFixture,
  type TestService,
  startCaptchaProvider,
  startTestService,
} from '../support/service.js';

/**
 * Every error code a route can raise is in its OpenAPI responses: each route's documented errors
 * are the groups its pieces export (the body gate's, the guard's, the fresh check's, the watch
 * engine's), so no list can drift from what the pieces raise. Shown two ways: the document names
 * each guard refusal and body error on every route that takes a unit, and each check answers the
 * guard's refusals over real HTTP, every answer checked against its route's documented error
 * schema (test/support/service.ts).
 */

const goodToken = 'good-token-1c4e';
const badToken = 'bad-token-7d2a';
const pool = 'pool.demo-sender.com';
const poolIps = ['192.0.3.100', '192.0.3.101'];

interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: { code?: { enum?: string[] } } }> };
}

let provider: CaptchaProviderFixture;
let service: TestService;
let document: Document;

beforeAll(async () => {
  provider = await startCaptchaProvider({ goodTokens: [goodToken] });
  service = await startTestService({
    world: demoWorld(await loadZoneList()),
    env: (dns) => ({
      POOL_NS_PORT: String(dns.port),
      POOL_NS_ALLOW_NON_PUBLIC: 'true',
      // SmartCaptcha fails open; with no unverified check allowed, a failing provider is a 503.
      CAPTCHA_PROVIDER: 'smartcaptcha',
      CAPTCHA_SITE_KEY: 'site-key',
      CAPTCHA_SECRET: 'secret',
      CAPTCHA_VERIFY_URL: provider.urlFor('smartcaptcha'),
      CAPTCHA_FREE_CHECKS: '0',
      CAPTCHA_FAIL_OPEN_PER_DAY: '0',
    }),
  });
  document = (await (await service.get('/openapi.json')).json()) as Document;
});
afterAll(async () => {
  await service.close();
  await provider.close();
});
afterEach(() => provider.setMode('ok'));

/** The codes an operation documents, read from its error schema's `code` enum. */
function documentedCodes(operation: Operation): string[] {
  const codes = Object.entries(operation.responses)
    .filter(([status]) => Number(status) >= 400)
    .flatMap(([, response]) => {
      const ref = response.content?.['application/json']?.schema?.$ref ?? '';
      const schema = document.components.schemas[ref.replace('#/components/schemas/', '')];
      return schema?.properties?.code?.enum ?? [];
    });
  return [...new Set(codes)];
}

/** Every operation that takes a unit of quota: the ones the captcha token guards. */
function charged(): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.values(methods)
      .filter((operation) =>
        operation.security?.some((requirement) => 'captchaToken' in requirement),
      )
      .map((operation) => [path, operation] as [string, Operation]),
  );
}

describe('the documented errors', () => {
  it('name every guard refusal and body error on every route that takes a unit', () => {
    const operations = charged().map(([, operation]) => operation.operationId);
    expect(operations).toEqual(
      expect.arrayContaining([
        'checkIp',
        'checkDomain',
        'discoverPool',
        'checkPool',
        'createWatch',
        'createReportsInbox',
      ]),
    );
    for (const [, operation] of charged()) {
      expect({ [operation.operationId]: documentedCodes(operation) }).toEqual({
        [operation.operationId]: expect.arrayContaining([...guardErrors, ...jsonBodyErrors]),
      });
    }
  });

  it('document each code under the status its record gives it', () => {
    for (const methods of Object.values(document.paths)) {
      for (const operation of Object.values(methods)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const ref = response.content?.['application/json']?.schema?.$ref ?? '';
          if (Number(status) < 400 || !ref) continue;
          const schema = document.components.schemas[ref.replace('#/components/schemas/', '')];
          const codes = schema?.properties?.code?.enum ?? [];
          const statuses = new Set(
            codes.map((code) => errorRecords[code as keyof typeof errorRecords].status),
          );
          expect(statuses.has(Number(status) as never)).toBe(true);
        }
      }
    }
  });
});

/** Each check, with a body whose target parses (the guard is asked after the body is read). */
const checks: { operation: string; path: string; body: Record<string, unknown> }[] = [
  { operation: 'checkIp', path: '/ip/v1', body: { target: '192.0.3.20' } },
  { operation: 'checkDomain', path: '/domain/v1', body: { domain: 'demo-sender.com' } },
  { operation: 'discoverPool', path: '/pool/v1/discover', body: { pool } },
  { operation: 'checkPool', path: '/pool/v1/check', body: { pool, ips: poolIps } },
  { operation: 'createWatch', path: '/watch/v1', body: { target: '192.0.3.20' } },
  { operation: 'createReportsInbox', path: '/reports/v1', body: { domain: 'demo-sender.com' } },
];

describe.each(checks)('$operation', ({ path, body }) => {
  beforeAll(async () => {
    // A pool check takes only addresses a discover found.
    if (path === '/pool/v1/check') {
      const found = await service.post('/pool/v1/discover', { pool, 'smart-token': goodToken });
      expect(found.status).toBe(200);
    }
  });

  it('answers captcha_required as documented', async () => {
    const response = await service.post(path, body);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'captcha_required' });
  });

  it('answers captcha_failed as documented', async () => {
    const response = await service.post(path, { ...body, 'smart-token': badToken });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'captcha_failed' });
  });

  it('answers captcha_unavailable as documented, with Retry-After', async () => {
    await provider.setMode('error');
    const response = await service.post(path, { ...body, 'smart-token': goodToken });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('60');
    expect(await response.json()).toMatchObject({ code: 'captcha_unavailable' });
  });
});
