import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshRedisUrl } from '../../support/redis.js';
import {
  type CaptchaProviderFixture,
  expectError,
  postError,
  startCaptchaProvider,
  startTestService,
} from '../../support/service.js';
import { createWatch, send } from './support.js';

/**
 * The watch routes' limits and stores: the caps (WATCH_PER_CALLER, WATCH_MAX), the captcha as on
 * every check, and the routes' life cycle on each store the Node service runs on.
 */

const target = '8.8.100.9';

describe('the caps', () => {
  it('refuses a caller past WATCH_PER_CALLER with 429 watch_limit, and a deletion frees a place', async () => {
    const service = await startTestService({ env: { WATCH_PER_CALLER: '2' } });
    try {
      const first = await createWatch(service, { target });
      await createWatch(service, { target });
      const refused = await service.post('/watch/v1', { target });
      // Every 429 says when to come back: an hour, or at once after a DELETE.
      expect(refused.headers.get('retry-after')).toBe('3600');
      await expectError(refused, 429, postError('watch_limit'));
      await send(service, 'DELETE', `/watch/v1/${first.id}`, { key: first.manage_key });
      expect((await service.post('/watch/v1', { target })).status).toBe(201);
    } finally {
      await service.close();
    }
  });

  it('refuses past WATCH_MAX with 503 watch_capacity and Retry-After, and gives the unit back', async () => {
    const service = await startTestService({ env: { WATCH_MAX: '1' } });
    try {
      await createWatch(service, { target });
      const remaining = async () =>
        ((await (await service.get('/ip/v1/status')).json()) as { dailyRemaining: number })
          .dailyRemaining;
      const before = await remaining();
      const refused = await service.post('/watch/v1', { target });
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      await expectError(refused, 503, postError('watch_capacity'));
      expect(await remaining()).toBe(before);
    } finally {
      await service.close();
    }
  });
});

describe('the captcha', () => {
  let provider: CaptchaProviderFixture;
  beforeAll(async () => {
    provider = await startCaptchaProvider({ goodTokens: ['good-token'] });
  });
  afterAll(() => provider.close());

  it('is required past the free checks, as on every check, and a good token creates the watch', async () => {
    const service = await startTestService({
      env: {
        CAPTCHA_PROVIDER: 'turnstile',
        CAPTCHA_SITE_KEY: 'site-key',
        CAPTCHA_SECRET: 'secret',
        CAPTCHA_VERIFY_URL: provider.urlFor('turnstile'),
        CAPTCHA_FREE_CHECKS: '0',
      },
    });
    try {
      const without = await service.post('/watch/v1', { target });
      expect(without.status).toBe(403);
      expect(await without.json()).toMatchObject({ code: 'captcha_required', siteKey: 'site-key' });
      const bad = await service.post('/watch/v1', { target, 'smart-token': 'bad-token' });
      expect(((await bad.json()) as { code: string }).code).toBe('captcha_failed');
      const good = await service.post('/watch/v1', { target }, { 'x-captcha-token': 'good-token' });
      expect(good.status).toBe(201);
    } finally {
      await service.close();
    }
  });
});

const stores: [string, () => Promise<string>][] = [
  ['SQLite', async () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'watch-routes-')), 'a.db')}`],
  ['Redis', freshRedisUrl],
];

describe.each(stores)('on %s', (_, storeUrl) => {
  it('creates, shows, changes and deletes a watch', async () => {
    const service = await startTestService({
      env: { STORE_URL: await storeUrl(), WATCH_MIN_INTERVAL_S: '60' },
    });
    try {
      const watch = await createWatch(service, { target, interval_s: 600 });
      const view = await service.get(`/watch/v1/${watch.id}`);
      expect(await view.json()).toMatchObject({ id: watch.id, interval_s: 600, ended: false });
      const badge = await service.get(`/watch/v1/${watch.id}/badge.svg?lang=en`);
      expect(await badge.text()).toContain(`watch ${target}`);
      const patched = await send(service, 'PATCH', `/watch/v1/${watch.id}`, {
        body: { interval_s: 900, paused: true },
        key: watch.manage_key,
      });
      expect(await patched.json()).toMatchObject({ interval_s: 900, paused: true });
      const deleted = await send(service, 'DELETE', `/watch/v1/${watch.id}`, {
        key: watch.manage_key,
      });
      expect(deleted.status).toBe(204);
      expect((await service.get(`/watch/v1/${watch.id}`)).status).toBe(404);
    } finally {
      await service.close();
    }
  });
});
