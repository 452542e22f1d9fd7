import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createCallerIds } from '../../src/operations/caller-ids.js';
import { base64url } from '../../src/lib/index.js';
import { StoreUnavailableError } from '../../src/store/store.js';
import type { WorkerBindings } from '../../src/workers/platform.js';
import { createDurableStore } from '../../src/workers/durable-store.js';
import { describeStoreContract } from '../store/contract.js';

/**
 * The Store contract inside workerd, on the Durable Objects of wrangler.toml (every key its own
 * object, src/workers/store-object.ts): the same suite as the memory, SQLite and Redis stores, and
 * what only this backend does, expiring by alarm.
 */

const { STORE } = env as unknown as WorkerBindings;
const freshPrefix = () => `${crypto.randomUUID()} `;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Every call is a round trip to an object in a workerd that runs every file of the project.
describeStoreContract(
  'Durable Object',
  async () => createDurableStore(STORE, { prefix: freshPrefix() }),
  { timeScale: 5 },
);

describe('the Durable Object store', () => {
  it('is one store for every isolate: a second handle on the namespace reads what the first wrote', async () => {
    const prefix = freshPrefix();
    const first = createDurableStore(STORE, { prefix });
    const second = createDurableStore(STORE, { prefix });
    await first.set('token:ip:shared', 'result', 60_000);
    expect(await second.get('token:ip:shared')).toBe('result');
    await first.increment('quota', 49, 60_000);
    const taken = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? first : second).incrementWithin('quota', 50, 60_000),
      ),
    );
    expect(taken.filter((value) => value !== undefined)).toEqual([50]);
  });

  it('deletes a key, and all its object keeps, at its alarm once everything in it has expired', async () => {
    const prefix = freshPrefix();
    const store = createDurableStore(STORE, { prefix });
    await store.set('short', 'v', 300);
    await store.addMembers('short', ['a'], 400);
    const object = STORE.get(STORE.idFromName(`${prefix}short`));
    const alarm = () => runInDurableObject(object, (_instance, state) => state.storage.getAlarm());
    expect(await alarm()).toBeGreaterThan(0);
    // The alarm goes off on its own (miniflare runs alarms at their time), or here if it has not.
    await sleep(500);
    await runDurableObjectAlarm(object);
    await expect.poll(alarm, { timeout: 2000 }).toBeNull();
    const tables = await runInDurableObject(object, (_instance, state) =>
      state.storage.sql
        .exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('slot', 'member')")
        .toArray(),
    );
    expect(tables).toEqual([]);
    expect(await store.get('short')).toBeUndefined();
    expect(await store.members('short')).toEqual([]);
    // A key used again after its object was emptied starts afresh.
    await store.set('short', 'again', 60_000);
    expect(await store.get('short')).toBe('again');
  });

  it('moves the alarm to the next expiry while something lives', async () => {
    const prefix = freshPrefix();
    const store = createDurableStore(STORE, { prefix });
    await store.addMembers('set', ['early'], 300);
    await store.addMembers('set', ['late'], 60_000);
    const object = STORE.get(STORE.idFromName(`${prefix}set`));
    await sleep(500);
    await runDurableObjectAlarm(object);
    const alarm = () => runInDurableObject(object, (_instance, state) => state.storage.getAlarm());
    await expect.poll(alarm, { timeout: 2000 }).toBeGreaterThan(Date.now() + 50_000);
    expect(await store.members('set')).toEqual(['late']);
    const rows = await runInDurableObject(object, (_instance, state) =>
      state.storage.sql.exec('SELECT name FROM member').toArray(),
    );
    expect(rows).toEqual([{ name: 'late' }]);
  });

  it('keeps a due queue through an alarm: its ids never expire', async () => {
    const prefix = freshPrefix();
    const store = createDurableStore(STORE, { prefix });
    await store.putDue('watches', 'w1', Date.now() + 60_000);
    // A value under the queue's key sets an alarm; when it has gone, the queue must stay.
    await store.set('watches', 'v', 300);
    const object = STORE.get(STORE.idFromName(`${prefix}watches`));
    await sleep(500);
    await runDurableObjectAlarm(object);
    expect(await store.get('watches')).toBeUndefined();
    expect(await store.countDue('watches')).toBe(1);
  });

  it('answers StoreUnavailableError when the objects cannot be reached', async () => {
    const broken = {
      idFromName: (name: string) => STORE.idFromName(name),
      get: () => {
        throw new Error('Durable Object reset because its code was updated');
      },
    } as unknown as typeof STORE;
    const store = createDurableStore(broken);
    await expect(store.get('token:ip:x')).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.incrementWithin('quota', 5, 1000)).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
  });
});

describe('caller ids on the Durable Object store', () => {
  it('are HMAC-SHA-256 under one key the store keeps, the same from every isolate', async () => {
    const prefix = freshPrefix();
    const day = 86_400_000;
    const now = new Date();
    const idsFrom = () =>
      createCallerIds({
        store: createDurableStore(STORE, { prefix }),
        clock: () => now,
        randomBytes: (length) => crypto.getRandomValues(new Uint8Array(length)),
        periodMs: 90 * day,
      });
    const [first, second] = await Promise.all([
      idsFrom().idsOf('203.0.113.7'),
      idsFrom().idsOf('203.0.113.7'),
    ]);
    expect(second).toEqual(first);
    const store = createDurableStore(STORE, { prefix });
    const [secret] = await store.members(`caller-key:${Math.floor(now.getTime() / (90 * day))}`);
    const key = await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode('203.0.113.7'));
    expect(first).toEqual([base64url(new Uint8Array(mac))]);
  });
});
