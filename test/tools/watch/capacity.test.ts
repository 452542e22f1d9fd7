import { createHmac, createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../../src/node/store/redis.js';
import { openSqliteStore } from '../../../src/node/store/sqlite.js';
import { type Store, withNamespace } from '../../../src/store/index.js';
import { freshRedisUrl } from '../../support/redis.js';
import {
  type CaptchaProviderFixture,
  expectError,
  postError,
  startCaptchaProvider,
  startTestService,
  type TestService,
} from '../../support/service.js';
import { type CreatedWatch, send } from './support.js';

/**
 * The caps no one network can get round (docs/watches.md, "Limits"), over HTTP against the real
 * app: callers counted per IPv4 /24 and IPv6 /48 besides per address and /64, a network's share of
 * WATCH_MAX, renewal within the caps, ids that survive a key's rotation, the captcha on every
 * creation, and caller ids stored as keyed hashes on the real stores. The callers are told apart
 * by X-Forwarded-For from a proxy TRUST_PROXY believes (one hop).
 */

const target = '8.8.100.9';
const from = (address: string) => ({ 'x-forwarded-for': address });
const day = 86_400_000;

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(env: Record<string, string>, now?: Date): Promise<TestService> {
  service = await startTestService({ env: { TRUST_PROXY: '1', ...env }, ...(now ? { now } : {}) });
  return service;
}

const create = (s: TestService, address: string, body: object = {}) =>
  s.post('/watch/v1', { target, ...body }, from(address));

async function created(s: TestService, address: string): Promise<CreatedWatch> {
  const response = await create(s, address);
  expect(response.status).toBe(201);
  return (await response.json()) as CreatedWatch;
}

describe('the network caps', () => {
  it('count an IPv6 /48 across its /64s: WATCH_PER_NETWORK refuses the next /64 of a full /48', async () => {
    const s = await start({ WATCH_PER_CALLER: '2', WATCH_PER_NETWORK: '3' });
    for (const subnet of ['1', '2', '3']) await created(s, `2001:db8:aa:${subnet}::1`);
    const refused = await create(s, '2001:db8:aa:4::1');
    expect(((await refused.clone().json()) as { error: string }).error).toMatch(
      /WATCH_PER_NETWORK/,
    );
    await expectError(refused, 429, postError('watch_limit'));
    // Another /48 is another network.
    await created(s, '2001:db8:ab:1::1');
  });

  it('count an IPv4 /24 across its addresses', async () => {
    const s = await start({ WATCH_PER_CALLER: '2', WATCH_PER_NETWORK: '3' });
    for (const host of ['1', '2', '3']) await created(s, `203.0.113.${host}`);
    await expectError(await create(s, '203.0.113.200'), 429, postError('watch_limit'));
    await created(s, '203.0.114.1');
  });

  it('keep a share of WATCH_MAX that one network cannot take, whatever WATCH_PER_NETWORK says', async () => {
    // A tenth of 20 is 2: the /24 is full at 2 though WATCH_PER_NETWORK allows 100.
    const s = await start({ WATCH_MAX: '20', WATCH_PER_CALLER: '1', WATCH_PER_NETWORK: '100' });
    await created(s, '198.51.100.1');
    await created(s, '198.51.100.2');
    await expectError(await create(s, '198.51.100.3'), 429, postError('watch_limit'));
    await created(s, '198.51.101.1');
  });
});

describe('a PATCH', () => {
  it('renews a watch only within the caps of the caller who renews it, which then holds its place', async () => {
    const s = await start({ WATCH_PER_CALLER: '1', WATCH_PER_NETWORK: '1' });
    const first = await created(s, '203.0.113.1');
    await created(s, '198.51.100.1');
    const patch = (address: string) =>
      send(s, 'PATCH', `/watch/v1/${first.id}`, {
        body: { interval_s: 7200 },
        key: first.manage_key,
        headers: from(address),
      });
    // The creator renews its own place.
    expect((await patch('203.0.113.1')).status).toBe(200);
    // A full network cannot renew a watch into a place it does not have.
    await expectError(await patch('198.51.100.1'), 429, {
      status: 'error',
      code: 'watch_limit',
      error: expect.any(String),
    });
    expect(
      ((await (await s.get(`/watch/v1/${first.id}`)).json()) as { interval_s: number }).interval_s,
    ).toBe(7200);
    // A caller with room takes the watch's place, and the first network has its own back.
    expect((await patch('192.0.2.1')).status).toBe(200);
    await created(s, '203.0.113.1');
    await expectError(await create(s, '192.0.2.1'), 429, postError('watch_limit'));
  });
});

describe('the caller key', () => {
  it('still counts an id made under the previous key after the key rotates', async () => {
    // WATCH_TTL_DAYS=2: a key makes ids for two days. Created late in one period, the watch
    // lives on into the next, where the caller's id is made under a new key.
    const late = new Date(
      Math.floor(Date.UTC(2026, 5, 1) / (2 * day)) * 2 * day + 2 * day - 3_600_000,
    );
    const s = await start({ WATCH_PER_CALLER: '1', WATCH_TTL_DAYS: '2' }, late);
    await created(s, '203.0.113.9');
    s.setNow(new Date(late.getTime() + 2 * 3_600_000));
    await expectError(await create(s, '203.0.113.9'), 429, postError('watch_limit'));
  });
});

describe('the captcha', () => {
  let provider: CaptchaProviderFixture;
  beforeAll(async () => {
    provider = await startCaptchaProvider({ goodTokens: ['good-token'] });
  });
  afterAll(() => provider.close());

  it('is asked of every creation, though the caller has free checks left', async () => {
    const s = await start({
      CAPTCHA_PROVIDER: 'turnstile',
      CAPTCHA_SITE_KEY: 'site-key',
      CAPTCHA_SECRET: 'secret',
      CAPTCHA_VERIFY_URL: provider.urlFor('turnstile'),
      CAPTCHA_FREE_CHECKS: '5',
    });
    // A check is free...
    expect((await s.post('/ip/v1', { target }, from('203.0.113.5'))).status).toBe(200);
    // ...a watch is not.
    const without = await create(s, '203.0.113.5');
    await expectError(without, 403, {
      ...postError('captcha_required'),
      captchaRequired: true,
      siteKey: 'site-key',
    });
    expect((await create(s, '203.0.113.5', { 'smart-token': 'good-token' })).status).toBe(201);
  });
});

/** The stores a caller id is written to, opened a second time beside the service to read it. */
const stores: [string, () => Promise<{ url: string; open: () => Promise<Store> }>][] = [
  [
    'SQLite',
    async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'watch-caller-')), 'store.db');
      return {
        url: `sqlite:${file}`,
        open: async () => withNamespace(openSqliteStore(file), 'default'),
      };
    },
  ],
  [
    'Redis',
    async () => {
      const url = await freshRedisUrl();
      return { url, open: async () => withNamespace(await openRedisStore(url), 'default') };
    },
  ],
];

describe.each(stores)('on %s, a watch’s caller', (_, backend) => {
  it('is stored as HMAC-SHA-256 under the key the store keeps, never as the address or a plain hash of it', async () => {
    const { url, open } = await backend();
    const now = new Date();
    const s = await start({ STORE_URL: url }, now);
    const watch = await created(s, '203.0.113.77');
    const store = await open();
    try {
      const config = JSON.parse((await store.get(`watch:${watch.id}`))!) as {
        caller_hash: string;
        network_hash: string;
      };
      const period = Math.floor(now.getTime() / (90 * day));
      const [key] = await store.members(`caller-key:${period}`);
      expect(key).toMatch(/^[\w-]{43}$/);
      const hmac = (text: string) => createHmac('sha256', key!).update(text).digest('base64url');
      expect(config.caller_hash).toBe(hmac('203.0.113.77'));
      expect(config.network_hash).toBe(hmac('203.0.113.0/24'));
      expect(config.caller_hash).not.toBe(
        createHash('sha256').update('203.0.113.77').digest('base64url'),
      );
      expect(await store.members(`watches-of:${config.caller_hash}`)).toEqual([watch.id]);
      expect(await store.members(`watches-in:${config.network_hash}`)).toEqual([watch.id]);
      // The quota counter the creation took its unit from is kept under the id too.
      const today = now.toISOString().slice(0, 10);
      expect(await store.count(`quota:ip:${config.caller_hash}:${today}`)).toBe(1);
      expect(await store.count(`quota:ip:203.0.113.77:${today}`)).toBe(0);
    } finally {
      await store.close();
    }
  });
});
