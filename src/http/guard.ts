import type { Store } from '../store/store.js';
import type { CaptchaVerifier } from './captcha.js';
import { ApiError } from './errors.js';
import type { QuotaStatus } from './quota-status.js';
import { createUtcDays } from './utc-day.js';

/**
 * The quota and captcha rules of DESIGN.md: checks are counted per tool, per caller, per UTC day;
 * a fresh check costs one unit and a cached one none; past `freeChecks` a day a captcha token is
 * required on every POST.
 */

export type { QuotaStatus } from './quota-status.js';

export interface CaptchaRule {
  verifier: CaptchaVerifier;
  siteKey: string;
  /** Checks per caller per day before a captcha is required. */
  freeChecks: number;
}

export interface GuardOptions {
  store: Store;
  clock: () => Date;
  dailyLimit: number;
  captcha?: CaptchaRule;
  isConfigured: () => boolean;
  /** Why not, when `isConfigured` is false. */
  notConfiguredReason?: () => string | undefined;
}

export interface Guard {
  status(tool: string, subject: string): Promise<QuotaStatus>;
  /** Throws 403 `captcha_required` / `captcha_failed` when a captcha is due and not solved. */
  requireCaptcha(
    tool: string,
    subject: string,
    token: string | undefined,
    callerIp: string,
  ): Promise<void>;
  /** Takes one unit, or throws 429 `quota_exceeded` with Retry-After at the next UTC midnight. */
  consume(tool: string, subject: string): Promise<QuotaStatus>;
  /** Gives a unit back when the service, not the caller, made the check fail. */
  refund(tool: string, subject: string): Promise<void>;
}

export function createGuard(options: GuardOptions): Guard {
  const { store, clock, dailyLimit, captcha } = options;
  const dayOf = createUtcDays();

  /** A caller's counter for today and the ms until it resets, from one reading of the clock. */
  function counter(tool: string, subject: string) {
    const now = clock();
    const day = dayOf(now);
    const msLeft = day.endsAt - now.getTime();
    // Counters outlive their day by a minute, so a request at 23:59:59.9 never sees a reset counter.
    return { key: `quota:${tool}:${subject}:${day.key}`, ttl: msLeft + 60_000, msLeft };
  }

  /** Adding nothing reads the counter (Store has no separate read for counters). */
  function used(tool: string, subject: string): Promise<number> {
    const { key, ttl } = counter(tool, subject);
    return store.increment(key, 0, ttl);
  }

  function statusFor(count: number): QuotaStatus {
    const captchaRequired = captcha !== undefined && count >= captcha.freeChecks;
    const configured = options.isConfigured();
    const reason = configured ? undefined : options.notConfiguredReason?.();
    return {
      configured,
      ...(reason ? { reason } : {}),
      dailyLimit,
      dailyRemaining: Math.max(0, dailyLimit - count),
      captchaRequired,
      ...(captchaRequired ? { siteKey: captcha.siteKey } : {}),
    };
  }

  return {
    status: async (tool, subject) => statusFor(await used(tool, subject)),

    async requireCaptcha(tool, subject, token, callerIp) {
      if (!captcha || (await used(tool, subject)) < captcha.freeChecks) return;
      if (token === undefined || token === '') {
        throw new ApiError(
          'captcha_required',
          'a captcha token is required (body field smart-token or header X-Captcha-Token)',
        );
      }
      const verdict = await captcha.verifier.verify(token, callerIp);
      if (!verdict.ok) {
        const why =
          verdict.reason === 'rejected'
            ? 'the captcha token was rejected'
            : 'the captcha could not be verified';
        throw new ApiError('captcha_failed', why);
      }
    },

    async consume(tool, subject) {
      const { key, ttl, msLeft } = counter(tool, subject);
      const count = await store.increment(key, 1, ttl);
      if (count > dailyLimit) {
        await store.increment(key, -1, ttl);
        const retryAfter = Math.ceil(msLeft / 1000);
        throw new ApiError(
          'quota_exceeded',
          `the daily limit of ${dailyLimit} checks is used up; it resets at 00:00 UTC`,
          { 'Retry-After': String(retryAfter) },
          { ...statusFor(dailyLimit) },
        );
      }
      return statusFor(count);
    },

    async refund(tool, subject) {
      const { key, ttl } = counter(tool, subject);
      await store.increment(key, -1, ttl);
    },
  };
}
