import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../fixtures/redis-server.js';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { type TestService, startTestService } from '../support/service.js';

/**
 * GET /readyz follows the store (docs/operations.md): a private redis-server is stopped under a
 * running service and started again. Readiness turns 503 and back to 200 on its own, liveness
 * stays 200 throughout, and the store's failures are counted in /metrics.
 */

let redis: RedisServer;
let service: TestService;
beforeAll(async () => {
  redis = await startRedisServer();
  service = await startTestService({ env: { STORE_URL: redis.url } });
});
afterAll(async () => {
  await service.close();
  await redis.stop();
});

async function readiness(): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await service.fetch(service.rootUrl('/readyz'));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const healthz = async () => (await service.fetch(service.rootUrl('/healthz'))).status;

async function storeErrors(): Promise<number> {
  const text = await (await service.fetch(service.rootUrl('/metrics'))).text();
  return parsePrometheusText(text)
    .samples.filter(
      (sample) =>
        sample.name === 'reputation_store_errors_total' && sample.labels.backend === 'redis',
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}

describe('a service on Redis', () => {
  it('is ready while Redis answers', async () => {
    expect(await readiness()).toEqual({
      status: 200,
      body: { ready: true, configured: true, store: 'up' },
    });
    expect(await storeErrors()).toBe(0);
  });

  it('answers /readyz 503 while Redis is stopped, and /healthz 200', async () => {
    await redis.stop();
    // The last answer stands for about a second: polled until the probe has asked again.
    await expect.poll(readiness, { timeout: 5000, interval: 200 }).toEqual({
      status: 503,
      body: {
        ready: false,
        configured: true,
        store: 'down',
        reason: expect.stringMatching(/store does not answer/),
      },
    });
    expect(await healthz()).toBe(200);
    expect(await storeErrors()).toBeGreaterThan(0);
  });

  it('is ready again once Redis is back, without a restart', async () => {
    await redis.start();
    await expect
      .poll(async () => (await readiness()).status, { timeout: 10_000, interval: 200 })
      .toBe(200);
    expect(await healthz()).toBe(200);
  });
});
