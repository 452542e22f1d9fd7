import { OpenAPIHono, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../../src/http/context.js';
import { corsMiddleware } from '../../../src/http/cors.js';
import { ApiError, errorBody } from '../../../src/http/errors.js';
import { createGuard } from '../../../src/http/guard.js';
import { webCrypto } from '../../../src/platform.js';
import { createCardCache } from '../../../src/share/card-cache.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import { ipPage } from '../../../src/tools/ip/page.js';
import { summariseIp } from '../../../src/tools/ip/summary.js';
import { createResultStore, maxResultBytes } from '../../../src/tools/common/results.js';
import { snapshotTool } from '../../../src/tools/common/snapshot-tool.js';
import { testSite } from '../../support/site.js';

/**
 * The shared POST pipeline with a tool whose check returns a result of the size asked for: a
 * result over the stored-result bound is a clear 400, costs its unit (the check's work was
 * done), stores nothing and is not answered from the result cache. No real tool can produce
 * such a result once its fields are capped, so the bound is shown here, where it is enforced.
 */

async function sizedTool() {
  const store = createMemoryStore();
  const guard = createGuard({
    store,
    clock: () => new Date('2026-05-10T12:00:00Z'),
    dailyLimit: 10,
    isConfigured: () => true,
  });
  const results = createResultStore(
    store,
    { tokenMs: 60_000, resultMs: 60_000 },
    webCrypto.randomBytes,
  );
  let runs = 0;
  const toolApp = new OpenAPIHono<AppEnv>();
  const tool = snapshotTool(
    toolApp,
    { name: 'ip', title: 'Sized', summarise: summariseIp, page: ipPage },
    {
      guard,
      results,
      isConfigured: () => true,
      digest: webCrypto.digest,
      meanings: new Map(),
      cards: createCardCache({
        maxBytes: 1024,
        render: () => Promise.reject(new Error('no cards here')),
      }),
      site: await testSite(),
    },
  );
  tool.status();
  tool.check({
    path: '/',
    operationId: 'checkSized',
    summary: 'A check whose result has the size asked for',
    description: 'A result of `count` times `filler`.',
    body: z.object({ filler: z.string(), count: z.number().int() }),
    result: z.object({}).loose(),
    prepare: ({ filler, count }) => ({
      requestKey: `sized ${filler} ${count}`,
      async run() {
        runs++;
        return { ok: true, result: { ip: filler.repeat(count) } };
      },
    }),
  });
  tool.tokenRoutes(z.object({}).loose());

  const app = new OpenAPIHono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('caller', { address: '192.0.2.1', subject: '192.0.2.1' });
    await next();
  });
  app.use(
    '*',
    corsMiddleware(['*'], () => ['GET', 'POST']),
  );
  app.route('/ip', toolApp);
  app.onError((error, c) => {
    const apiError = error instanceof ApiError ? error : new ApiError('internal', 'internal error');
    return c.json(errorBody(apiError), apiError.status);
  });
  /** A result of `bytes` bytes of JSON in all: {"ip":"…"} around `filler` repeated. */
  const post = (bytes: number, filler = 'x') =>
    app.request('/ip', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        filler,
        count: (bytes - '{"ip":""}'.length) / new TextEncoder().encode(filler).length,
      }),
    });
  const remaining = async () =>
    ((await (await app.request('/ip/status')).json()) as { dailyRemaining: number }).dailyRemaining;
  return { post, remaining, runs: () => runs };
}

describe('a result over the stored-result bound', () => {
  it('stores a result of exactly the bound', async () => {
    const tool = await sizedTool();
    const response = await tool.post(maxResultBytes);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ from_cache: false, dailyRemaining: 9 });
  });

  it('is a 400 invalid_target naming the bound, charged one unit, stored nowhere', async () => {
    const tool = await sizedTool();
    const response = await tool.post(maxResultBytes + 1);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      status: 'error',
      code: 'invalid_target',
      error: `the result of this check is larger than the ${maxResultBytes / 1024} KiB the service stores`,
    });
    expect(await tool.remaining()).toBe(9);
    // Not cached: the same request runs (and is charged) again.
    expect((await tool.post(maxResultBytes + 1)).status).toBe(400);
    expect(tool.runs()).toBe(2);
    expect(await tool.remaining()).toBe(8);
  });

  it('is counted in UTF-8 bytes, not in characters', async () => {
    const tool = await sizedTool();
    // 2 bytes a character: about half as many characters as the bound, and 9 bytes over it.
    expect((await tool.post(maxResultBytes + 9, 'é')).status).toBe(400);
    expect((await tool.post(maxResultBytes - 1, 'é')).status).toBe(200);
  });
});
