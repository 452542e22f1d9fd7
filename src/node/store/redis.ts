import { Redis, type RedisOptions } from 'ioredis';
import {
  type DueClaim,
  type Store,
  StoreOpenError,
  StoreUnavailableError,
} from '../../store/index.js';

/**
 * The store of a fleet (`STORE_URL=redis://[user:pass@]host:port/db` or `rediss://` for TLS):
 * every process on every machine pointed at one Redis shares tokens, the result cache, quotas and
 * pool discoveries. Every key carries a TTL, so Redis forgets what has expired by itself.
 * Counters and sets are changed by Lua scripts, which Redis runs atomically.
 *
 * When Redis goes away, commands fail at once (no offline queue) or within commandTimeoutMs (a
 * Redis that hangs) with StoreUnavailableError, which the routes answer as 503; the client keeps
 * reconnecting at most a second apart, so service resumes within seconds of Redis coming back.
 * Why ioredis, and the key layout: docs/storage.md.
 */

export interface RedisStoreOptions {
  /** Prepended to every key, so the service can share a Redis database with others. */
  keyPrefix?: string;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
  /** How long the start waits for Redis to answer before giving up. */
  startTimeoutMs?: number;
  /** Called when the connection is lost and when it is back (once per change, not per retry). */
  onConnectionChange?: (up: boolean, detail: string) => void;
}

const defaults = {
  keyPrefix: 'reputation:',
  connectTimeoutMs: 2000,
  commandTimeoutMs: 1000,
  startTimeoutMs: 5000,
};

/** Adds to a counter, giving it its expiry when it has none (it was just created). */
const incrementScript = `
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return value`;

/** The same, unless the counter has reached the limit: then nil and nothing changes. */
const incrementWithinScript = `
local value = tonumber(redis.call('GET', KEYS[1]) or '0')
if value >= tonumber(ARGV[1]) then return false end
value = redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return value`;

/**
 * A set as a sorted set scored by each member's expiry (epoch ms): GT keeps the later expiry of a
 * member added again, expired members are trimmed, and the key lives as long as its longest member.
 */
const addMembersScript = `
for i = 4, #ARGV do redis.call('ZADD', KEYS[1], 'GT', ARGV[2], ARGV[i]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 0`;

/**
 * One member added unless the set holds `limit` live members (a member already live is renewed,
 * not counted twice): 1 when added or renewed, 0 when refused.
 */
const addMemberWithinScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if not redis.call('ZSCORE', KEYS[1], ARGV[5]) and
   redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], 'GT', ARGV[2], ARGV[5])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1`;

/**
 * A due queue is a sorted set scored by due time (epoch ms) without a TTL. The ids due now, earliest
 * first, each moved to the lease's end (given whole, so no number is formatted in Lua) before any
 * other command runs: a flat list of id, due time, id, due time ...
 */
const claimDueScript = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, ARGV[2])
for i = 1, #due, 2 do redis.call('ZADD', KEYS[1], 'XX', ARGV[3], due[i]) end
return due`;

interface ScriptedRedis extends Redis {
  incrementCounter(key: string, by: number, ttlMs: number): Promise<number>;
  incrementCounterWithin(key: string, limit: number, ttlMs: number): Promise<number | null>;
  addSetMembers(
    key: string,
    now: number,
    expiresAt: number,
    ttlMs: number,
    ...members: string[]
  ): Promise<number>;
  addSetMemberWithin(
    key: string,
    now: number,
    expiresAt: number,
    ttlMs: number,
    limit: number,
    member: string,
  ): Promise<number>;
  claimDueIds(key: string, now: number, limit: number, leasedUntil: number): Promise<string[]>;
}

/** Connects and waits until Redis answers, or throws StoreOpenError naming where it looked. */
export async function openRedisStore(url: string, options: RedisStoreOptions = {}): Promise<Store> {
  const settings = { ...defaults, ...options };
  const clientOptions: RedisOptions = {
    keyPrefix: settings.keyPrefix,
    // RESP2: the replies here are plain strings and integers; RESP3 (ioredis 6's default) brings
    // nothing for them, and cost more client CPU per command in a measurement (docs/storage.md).
    protocol: 2,
    lazyConnect: true,
    // Fail fast instead of queueing while disconnected: a request gets its 503 at once.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: settings.connectTimeoutMs,
    commandTimeout: settings.commandTimeoutMs,
    // Reconnect forever, at most a second apart.
    retryStrategy: (attempt) => Math.min(100 * attempt, 1000),
    // Commands issued in the same tick go out in one write: concurrent requests share round trips.
    enableAutoPipelining: true,
  };
  const client = new Redis(url, clientOptions) as ScriptedRedis;
  client.defineCommand('incrementCounter', { numberOfKeys: 1, lua: incrementScript });
  client.defineCommand('incrementCounterWithin', { numberOfKeys: 1, lua: incrementWithinScript });
  client.defineCommand('addSetMembers', { numberOfKeys: 1, lua: addMembersScript });
  client.defineCommand('addSetMemberWithin', { numberOfKeys: 1, lua: addMemberWithinScript });
  client.defineCommand('claimDueIds', { numberOfKeys: 1, lua: claimDueScript });

  const where = describe(url);
  let up = false;
  let lastError = 'no answer';
  client.on('error', (error: Error) => {
    lastError = error.message;
  });
  client.on('ready', () => {
    if (!up) settings.onConnectionChange?.(true, `connected to ${where}`);
    up = true;
  });
  client.on('close', () => {
    if (up) settings.onConnectionChange?.(false, `lost ${where}: ${lastError}`);
    up = false;
  });

  // Waits for the first `ready` rather than connect()'s promise, which fails at the first refusal:
  // a Redis started a moment after the service is still found.
  const ready = new Promise<void>((resolve) => client.once('ready', resolve));
  client.connect().catch(() => undefined);
  try {
    await withTimeout(ready, settings.startTimeoutMs);
  } catch {
    client.disconnect();
    throw new StoreOpenError(
      `cannot reach Redis at ${where}: ${lastError}: start Redis there, or set STORE_URL to where it runs`,
    );
  }

  return {
    get: (key) => guarded(client.get(key)).then((value) => value ?? undefined),
    async set(key, value, ttlMs) {
      await guarded(client.set(key, value, 'PX', ttlMs));
    },
    count: (key) => guarded(client.get(key)).then((value) => Number(value ?? 0)),
    increment: (key, by, ttlMs) => guarded(client.incrementCounter(key, by, ttlMs)),
    incrementWithin: (key, limit, ttlMs) =>
      guarded(client.incrementCounterWithin(key, limit, ttlMs)).then((value) => value ?? undefined),
    async addMembers(key, members, ttlMs) {
      if (members.length === 0) return;
      const now = Date.now();
      await guarded(client.addSetMembers(key, now, now + ttlMs, ttlMs, ...members));
    },
    members: (key) => guarded(client.zrangebyscore(key, `(${Date.now()}`, '+inf')),
    async delete(key) {
      await guarded(client.del(key));
    },
    async addMemberWithin(key, member, limit, ttlMs) {
      const now = Date.now();
      const added = client.addSetMemberWithin(key, now, now + ttlMs, ttlMs, limit, member);
      return (await guarded(added)) === 1;
    },
    async removeMembers(key, members) {
      if (members.length > 0) await guarded(client.zrem(key, ...members));
    },
    async putDue(queue, id, dueAt) {
      await guarded(client.zadd(queue, dueAt, id));
    },
    async removeDue(queue, id) {
      await guarded(client.zrem(queue, id));
    },
    countDue: (queue) => guarded(client.zcard(queue)),
    async earliestDue(queue) {
      const [, score] = await guarded(client.zrange(queue, '0', '0', 'WITHSCORES'));
      return score === undefined ? undefined : Number(score);
    },
    async claimDue(queue, now, limit, leaseMs) {
      if (limit < 1) return [];
      const flat = await guarded(client.claimDueIds(queue, now, limit, now + leaseMs));
      const claimed: DueClaim[] = [];
      for (let i = 0; i < flat.length; i += 2) {
        claimed.push({ id: flat[i]!, dueAt: Number(flat[i + 1]) });
      }
      return claimed;
    },
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}

/** Any failure of the client (refused, timed out, connection lost) means the store is unavailable. */
async function guarded<T>(command: Promise<T>): Promise<T> {
  try {
    return await command;
  } catch (error) {
    throw new StoreUnavailableError(`Redis: ${(error as Error).message}`, { cause: error });
  }
}

/** `host:port/db` without the credentials, for messages. */
function describe(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}${parsed.pathname.length > 1 ? parsed.pathname : '/0'}`;
  } catch {
    return 'STORE_URL';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
