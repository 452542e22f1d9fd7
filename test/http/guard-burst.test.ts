import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CaptchaVerifier } from '../../src/http/captcha/index.js';
import { createGuard } from '../../src/http/guard.js';
import { ApiError } from '../../src/http/errors.js';
import { openRedisStore } from '../../src/node/store/redis.js';
import { openSqliteStore } from '../../src/node/store/sqlite.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/store.js';
import { freshRedisUrl } from '../support/redis.js';

/**
 * The captcha rule under a burst, on each Node store directly: 30 checks of one caller started in
 * the same turn of the event loop (every reading taken before any unit is), with two free checks.
 * Exactly two pass without a captcha; the rest are 403 `captcha_required` and give their units
 * back. The HTTP burst of test/store/service.test.ts and the Durable Object one of
 * test/http/captcha-flow.test.ts (run inside workerd) cover the same over the wire.
 */

/** The provider is not the point here: it rejects every token, and no token is sent anyway. */
const rejectingVerifier: CaptchaVerifier = {
  provider: 'turnstile',
  verify: async () => ({ ok: false, reason: 'rejected' }),
};

async function opened(store: Store): Promise<Store> {
  onTestFinished(() => store.close());
  return store;
}

describe.each([
  ['memory', async () => createMemoryStore()],
  [
    'SQLite',
    async () => openSqliteStore(join(mkdtempSync(join(tmpdir(), 'guard-burst-')), 'store.db')),
  ],
  ['Redis', async () => openRedisStore(await freshRedisUrl())],
])('a burst on the %s store', (_name, open) => {
  it('lets exactly CAPTCHA_FREE_CHECKS of 30 checks started at once through without a captcha', async () => {
    const store = await opened(await open());
    const guard = createGuard({
      store,
      clock: () => new Date('2026-05-10T12:00:00Z'),
      dailyLimit: 50,
      captcha: { verifier: rejectingVerifier, siteKey: 'site', freeChecks: 2 },
      isConfigured: () => true,
    });
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const reading = await guard.read('ip', 'caller');
        try {
          await reading.take(undefined, '127.0.0.1');
          return 'passed';
        } catch (error) {
          return error instanceof ApiError ? error.code : 'other';
        }
      }),
    );
    expect(outcomes.filter((outcome) => outcome === 'passed')).toHaveLength(2);
    expect(outcomes.filter((outcome) => outcome === 'captcha_required')).toHaveLength(28);
    expect(await guard.status('ip', 'caller')).toMatchObject({ dailyRemaining: 48 });
  });
});
