import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../../src/node/store/redis.js';
import { type Store, StoreOpenError, StoreUnavailableError } from '../../../src/store/store.js';
import { freePort } from '../../../fixtures/free-port.js';
import { type RedisServer, startRedisServer } from '../../../fixtures/redis-server.js';
import { freshRedisUrl, inspect } from '../../support/redis.js';

/**
 * What only the Redis store does: every key it writes carries a TTL under its prefix, reading a
 * counter creates no key, and a Redis that goes away or hangs is a StoreUnavailableError at once
 * (not a wait), with service back by itself within seconds of Redis returning.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('keys in Redis', () => {
  it('all carry a TTL and the reputation: prefix', async () => {
    const url = await freshRedisUrl();
    const store = await openRedisStore(url);
    const redis = inspect(url);
    try {
      await store.set('token:ip:a', 'v', 60_000);
      await store.increment('quota:ip:x:2026-05-10', 1, 120_000);
      await store.incrementWithin('captcha-failures:x:2026-05-10', 20, 120_000);
      await store.addMembers('pool-discovery:p', ['192.0.2.1'], 30_000);
      await store.addMembers('pool-discovery:p', ['192.0.2.2'], 90_000);
      const keys = (await redis.keys('*')).sort();
      expect(keys).toEqual([
        'reputation:captcha-failures:x:2026-05-10',
        'reputation:pool-discovery:p',
        'reputation:quota:ip:x:2026-05-10',
        'reputation:token:ip:a',
      ]);
      for (const key of keys) expect(await redis.pttl(key)).toBeGreaterThan(0);
      // A set lives as long as its longest-lived member.
      expect(await redis.pttl('reputation:pool-discovery:p')).toBeGreaterThan(60_000);
    } finally {
      redis.disconnect();
      await store.close();
    }
  });

  it('are not created by reading a counter', async () => {
    const url = await freshRedisUrl();
    const store = await openRedisStore(url);
    const redis = inspect(url);
    try {
      expect(await store.count('quota:ip:x:2026-05-10')).toBe(0);
      expect(await redis.dbsize()).toBe(0);
    } finally {
      redis.disconnect();
      await store.close();
    }
  });
});

describe('a Redis that goes away', () => {
  let server: RedisServer;
  let store: Store;
  const changes: string[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
    store = await openRedisStore(server.url, {
      onConnectionChange: (up) => changes.push(up ? 'up' : 'down'),
    });
  });
  afterAll(async () => {
    await store.close();
    await server.stop();
  });

  async function failsFast(operation: () => Promise<unknown>, withinMs: number): Promise<void> {
    const started = performance.now();
    await expect(operation()).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(performance.now() - started).toBeLessThan(withinMs);
  }

  async function answersWithin(ms: number): Promise<number> {
    const started = performance.now();
    for (;;) {
      try {
        await store.set('back', 'yes', 60_000);
        return performance.now() - started;
      } catch {
        if (performance.now() - started > ms) throw new Error(`no answer within ${ms} ms`);
        await sleep(50);
      }
    }
  }

  it('fails every operation at once while it is down, and works again soon after it is back', async () => {
    await store.set('before', 'v', 60_000);
    await server.stop();
    await sleep(50);
    await failsFast(() => store.get('before'), 200);
    await failsFast(() => store.incrementWithin('quota', 50, 60_000), 200);
    await failsFast(() => store.count('quota'), 200);
    await failsFast(() => store.members('pool'), 200);
    await server.start();
    expect(await answersWithin(5000)).toBeLessThan(5000);
    expect(await store.get('back')).toBe('yes');
    expect(changes).toEqual(['up', 'down', 'up']);
  });

  it('fails within its command timeout when Redis hangs, and works once it answers again', async () => {
    await answersWithin(5000);
    server.pause();
    try {
      await failsFast(() => store.get('back'), 2500);
    } finally {
      server.resume();
    }
    expect(await answersWithin(5000)).toBeLessThan(5000);
  });
});

describe('a Redis that cannot be reached at start', () => {
  it('stops the start with one line naming STORE_URL and where it looked, never the password', async () => {
    const port = await freePort();
    const started = performance.now();
    const opening = openRedisStore(`redis://user:s3cret-pass@127.0.0.1:${port}/3`, {
      startTimeoutMs: 600,
    });
    await expect(opening).rejects.toBeInstanceOf(StoreOpenError);
    const message = await opening.catch((error: Error) => error.message);
    expect(message).toMatch(
      new RegExp(`^STORE_URL: cannot reach Redis at 127\\.0\\.0\\.1:${port}/3`),
    );
    expect(message).not.toContain('s3cret-pass');
    expect(message).not.toContain('\n');
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
