import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { FixtureZone } from '../../fixtures/dns-server.js';
import { type RedisServer, startRedisServer } from '../../fixtures/redis-server.js';
import { freshRedisUrl, inspect } from '../support/redis.js';
import {
  type CaptchaProviderFixture,
  type TestService,
  expectError,
  startCaptchaProvider,
  startTestService,
} from '../support/service.js';

/**
 * The service over HTTP on each store: the last unit of a quota goes to exactly one of 20 checks
 * arriving at once; a status read writes nothing; two services on one store judge a pool check by
 * each other's discovers; and a Redis that goes away under a running service turns every route
 * that needs it into 503 `store_unavailable` (never a 404 for a token), until it comes back.
 */

const temporaryFile = () => join(mkdtempSync(join(tmpdir(), 'store-service-')), 'store.db');

async function started(options: Parameters<typeof startTestService>[0]): Promise<TestService> {
  const service = await startTestService(options);
  onTestFinished(() => service.close());
  return service;
}

describe.each([
  ['memory', async () => 'memory:'],
  ['SQLite', async () => `sqlite:${temporaryFile()}`],
  ['Redis', freshRedisUrl],
])('the service on the %s store', (_name, storeUrl) => {
  it('gives one 200 and nineteen 429s to 20 fresh checks arriving at once with one unit left', async () => {
    const s = await started({ env: { STORE_URL: await storeUrl(), DAILY_LIMIT: '2' } });
    expect((await s.post('/ip/v1', { target: '8.8.4.4' })).status).toBe(200);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        return (await s.post('/ip/v1', { target: `185.20.30.${i + 1}` })).status;
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(19);
    expect(await (await s.get('/ip/v1/status')).json()).toMatchObject({ dailyRemaining: 0 });
  });

  it('lets exactly CAPTCHA_FREE_CHECKS of 30 checks arriving at once through without a captcha', async () => {
    const provider: CaptchaProviderFixture = await startCaptchaProvider({ goodTokens: [] });
    onTestFinished(() => provider.close());
    const s = await started({
      env: {
        STORE_URL: await storeUrl(),
        CAPTCHA_PROVIDER: 'turnstile',
        CAPTCHA_SITE_KEY: 'site-key',
        CAPTCHA_SECRET: 'secret',
        CAPTCHA_VERIFY_URL: provider.urlFor('turnstile'),
        CAPTCHA_FREE_CHECKS: '2',
      },
    });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => s.post('/ip/v1', { target: `185.21.30.${i + 1}` })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.filter((status) => status === 403)).toHaveLength(28);
    const codes = await Promise.all(
      answers
        .filter((answer) => answer.status === 403)
        .map(async (answer) => {
          return ((await answer.json()) as { code: string }).code;
        }),
    );
    expect(new Set(codes)).toEqual(new Set(['captcha_required']));
    // The refused ones gave their units back.
    expect(await (await s.get('/ip/v1/status')).json()).toMatchObject({ dailyRemaining: 48 });
  });
});

describe('a status read', () => {
  it('writes no counter into a SQLite file', async () => {
    const file = temporaryFile();
    const s = await started({ env: { STORE_URL: `sqlite:${file}` } });
    for (const tool of ['ip', 'domain', 'pool']) {
      expect((await s.get(`/${tool}/v1/status`)).status).toBe(200);
    }
    const db = new Database(file, { readonly: true });
    onTestFinished(() => {
      db.close();
    });
    expect(db.prepare('SELECT count(*) FROM counters').pluck().get()).toBe(0);
    await s.post('/ip/v1', { target: '8.8.4.4' });
    expect(db.prepare('SELECT count(*) FROM counters').pluck().get()).toBe(1);
  });

  it('writes no key into Redis', async () => {
    const url = await freshRedisUrl();
    const s = await started({ env: { STORE_URL: url } });
    const redis = inspect(url);
    onTestFinished(() => redis.disconnect());
    for (const tool of ['ip', 'domain', 'pool']) {
      expect((await s.get(`/${tool}/v1/status`)).status).toBe(200);
    }
    expect(await redis.dbsize()).toBe(0);
  });
});

const poolZones: FixtureZone[] = [
  {
    origin: 'pool-one.net',
    records: {
      'pool-one.net': { NS: ['ns1.pool-one.net'] },
      'ns1.pool-one.net': { A: ['127.0.0.1'] },
      'small.pool-one.net': { A: ['192.0.3.10', '192.0.3.7'] },
    },
  },
];

describe.each([
  ['SQLite file', async () => `sqlite:${temporaryFile()}`],
  ['Redis', freshRedisUrl],
])('two services on one %s', (_name, storeUrl) => {
  it('take a pool check on one for addresses a discover on the other found', async () => {
    const url = await storeUrl();
    const options = {
      zones: poolZones,
      env: (dns: { port: number }) => ({
        STORE_URL: url,
        POOL_NS_PORT: String(dns.port),
        POOL_NS_ALLOW_NON_PUBLIC: 'true',
      }),
    };
    const [a, b] = await Promise.all([started(options), started(options)]);
    const found = await a.post('/pool/v1/discover', { pool: 'small.pool-one.net' });
    expect(found.status).toBe(200);
    expect(((await found.json()) as { ips: string[] }).ips.sort()).toEqual([
      '192.0.3.10',
      '192.0.3.7',
    ]);
    const checked = await b.post('/pool/v1/check', {
      pool: 'small.pool-one.net',
      ips: ['192.0.3.7'],
    });
    expect(checked.status).toBe(200);
    // Still only what a discover found.
    const stranger = await b.post('/pool/v1/check', {
      pool: 'small.pool-one.net',
      ips: ['192.0.3.8'],
    });
    expect(stranger.status).toBe(400);
  });
});

describe('a running service whose Redis goes away and comes back', () => {
  let redis: RedisServer;
  let s: TestService;
  beforeAll(async () => {
    redis = await startRedisServer();
    s = await startTestService({ env: { STORE_URL: redis.url, DAILY_LIMIT: '5' } });
  });
  afterAll(async () => {
    await s.close();
    await redis.stop();
  });

  const unavailable = {
    status: 'error',
    code: 'store_unavailable',
    error: 'the service cannot reach its store right now; try again in a few seconds',
  };

  it('answers 503 store_unavailable on every route that needs the store, and stays up', async () => {
    const made = (await (await s.post('/ip/v1', { target: '8.8.4.4' })).json()) as {
      token: string;
    };
    await redis.stop();
    const routes = [
      () => s.get('/ip/v1/status'),
      () => s.post('/ip/v1', { target: '8.8.8.8' }),
      () => s.post('/ip/v1', { target: '8.8.4.4' }),
      // A token read is a 503, never a 404 saying the token is gone.
      () => s.get(`/ip/v1/${made.token}`),
      () => s.get(`/ip/v1/share/${made.token}/badge.svg`),
      () => s.get(`/ip/v1/share/${made.token}/card`),
      () => s.get(`/ip/v1/share/${made.token}`),
      () => s.post('/pool/v1/check', { pool: 'small.pool-one.net', ips: ['192.0.3.7'] }),
    ];
    for (const route of routes) {
      const response = await route();
      expect(response.headers.get('retry-after')).toBe('5');
      await expectError(response, 503, unavailable);
    }
    // What needs no store still answers.
    expect((await s.get('/openapi.json')).status).toBe(200);
    expect(s.logs.some((line) => line.includes('"store unavailable"'))).toBe(true);
  });

  it('serves again within seconds of Redis coming back, without a restart', async () => {
    await redis.start();
    const started = performance.now();
    let status = 0;
    while (performance.now() - started < 5000) {
      status = (await s.get('/ip/v1/status')).status;
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    // The server kept nothing (no persistence): the quota starts again, and new checks are kept.
    const made = await s.post('/ip/v1', { target: '8.8.8.8' });
    expect(made.status).toBe(200);
    const { token } = (await made.json()) as { token: string };
    expect((await s.get(`/ip/v1/${token}`)).status).toBe(200);
    expect(s.logs.some((line) => line.includes('"store connected"'))).toBe(true);
  });
});
