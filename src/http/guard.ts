import type { Store } from '../store/index.js';
import type { CaptchaVerifier } from './captcha/index.js';
import { ApiError } from './errors.js';
import type { QuotaStatus } from './quota-status.js';
import { type UtcDay, createUtcDays } from './utc-day.js';

/**
 * The quota and captcha rules of docs/DESIGN.md: checks are counted per tool, per caller, per UTC day;
 * a fresh check costs one unit and a cached one none; past `freeChecks` a day a captcha token is
 * required on every POST. The quota is judged before the captcha: a caller with nothing left is
 * refused without a call to the provider, and failed verifications per caller per day are
 * bounded (docs/storage.md).
 */

export type { QuotaStatus } from './quota-status.js';

export interface CaptchaRule {
  verifier: CaptchaVerifier;
  siteKey: string;
  /** Checks per caller per day before a captcha is required. */
  freeChecks: number;
}

/**
 * Failed captcha verifications a caller may cause per UTC day, all tools together; past it the
 * provider is not asked again until the day ends. A passed one costs a solved captcha, so this
 * bounds the provider calls a caller can cause without solving one.
 */
export const failedCaptchasPerDay = 20;

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
  /** The caller's status, read without creating a counter. */
  status(tool: string, subject: string): Promise<QuotaStatus>;
  /** Reads the caller's count once: a POST judges everything on this one reading and its day. */
  read(tool: string, subject: string): Promise<QuotaReading>;
}

export interface QuotaReading {
  status: QuotaStatus;
  /** Throws 429 `quota_exceeded` when nothing is left: before any captcha provider is asked. */
  requireUnitLeft(): void;
  /**
   * Throws 403 `captcha_required` / `captcha_failed` when a captcha is due and not solved, or
   * when the caller has used up today's failed verifications (then without asking the provider).
   */
  requireCaptcha(token: string | undefined, callerIp: string): Promise<void>;
  /** Takes one unit in one atomic step, or throws 429 when another request took the last one. */
  consume(): Promise<QuotaStatus>;
  /** Gives the unit back when the service, not the caller, made the check fail. */
  refund(): Promise<void>;
}

export function createGuard(options: GuardOptions): Guard {
  const { store, clock, dailyLimit, captcha } = options;
  const dayOf = createUtcDays();

  /** Today's day and how long its keys live: a minute past its end, so none resets early. */
  function today() {
    const now = clock();
    const day = dayOf(now);
    const msLeft = day.endsAt - now.getTime();
    return { day, msLeft, ttl: msLeft + 60_000 };
  }
  const quotaKey = (tool: string, subject: string, day: UtcDay) =>
    `quota:${tool}:${subject}:${day.key}`;

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

  function quotaExceeded(msLeft: number): ApiError {
    return new ApiError(
      'quota_exceeded',
      `the daily limit of ${dailyLimit} checks is used up; it resets at 00:00 UTC`,
      { 'Retry-After': String(Math.ceil(msLeft / 1000)) },
      { ...statusFor(dailyLimit) },
    );
  }

  async function verifyCaptcha(
    rule: CaptchaRule,
    token: string,
    callerIp: string,
    subject: string,
    when: ReturnType<typeof today>,
  ): Promise<void> {
    // A failure is reserved before the provider is asked and given back when the token passes:
    // however many requests arrive at once, at most failedCaptchasPerDay calls can fail.
    const failures = `captcha-failures:${subject}:${when.day.key}`;
    const reserved = await store.incrementWithin(failures, failedCaptchasPerDay, when.ttl);
    if (reserved === undefined) {
      throw new ApiError(
        'captcha_failed',
        `too many failed captcha verifications today; try again after 00:00 UTC`,
        { 'Retry-After': String(Math.ceil(when.msLeft / 1000)) },
      );
    }
    const verdict = await rule.verifier.verify(token, callerIp);
    if (verdict.ok) {
      await store.increment(failures, -1, when.ttl);
      return;
    }
    const why =
      verdict.reason === 'rejected'
        ? 'the captcha token was rejected'
        : 'the captcha could not be verified';
    throw new ApiError('captcha_failed', why);
  }

  return {
    async status(tool, subject) {
      const { day } = today();
      return statusFor(await store.count(quotaKey(tool, subject, day)));
    },

    async read(tool, subject) {
      const when = today();
      const key = quotaKey(tool, subject, when.day);
      const count = await store.count(key);
      return {
        status: statusFor(count),
        requireUnitLeft() {
          if (count >= dailyLimit) throw quotaExceeded(when.msLeft);
        },
        async requireCaptcha(token, callerIp) {
          if (!captcha || count < captcha.freeChecks) return;
          if (token === undefined || token === '') {
            throw new ApiError(
              'captcha_required',
              'a captcha token is required (body field smart-token or header X-Captcha-Token)',
            );
          }
          await verifyCaptcha(captcha, token, callerIp, subject, when);
        },
        async consume() {
          const taken = await store.incrementWithin(key, dailyLimit, when.ttl);
          if (taken === undefined) throw quotaExceeded(when.msLeft);
          return statusFor(taken);
        },
        async refund() {
          // The counter of the day the unit was taken from, even if the check ran past midnight.
          await store.increment(key, -1, when.ttl);
        },
      };
    },
  };
}
