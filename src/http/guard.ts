import type { Store } from '../store/index.js';
import type { CaptchaVerifier } from './captcha/index.js';
import { ApiError, type ErrorCode } from './errors.js';
import type { Logger } from '../lib/index.js';
import type { QuotaStatus } from './quota-status.js';
import { type UtcDay, createUtcDays } from './utc-day.js';

/**
 * The quota and captcha rules of docs/DESIGN.md: checks are counted per tool, per caller, per UTC day;
 * a fresh check costs one unit and a cached one none; past `freeChecks` a day a captcha token is
 * required on every POST. A fresh check takes its unit first, in one atomic step of the store,
 * and the unit's number says whether it is one of the free ones: however many requests arrive at
 * once, from however many processes, at most `freeChecks` pass without a captcha. A unit past the
 * free ones whose captcha fails is given back. So the quota is judged before the captcha (nothing
 * left is refused without a call to the provider), and failed verifications per caller per day
 * are bounded (docs/storage.md). A check that failed on our DNS before asking any list gets its
 * unit back, a bounded number of times a day; one that asked lists is charged (docs/results.md,
 * Refunds).
 */

export type { QuotaStatus } from './quota-status.js';

/**
 * What a fresh check's unit may be refused with (`take`, `requireCaptcha`): routes that take one
 * document these.
 */
export const guardErrors = [
  'quota_exceeded',
  'captcha_required',
  'captcha_failed',
  'captcha_unavailable',
] as const satisfies readonly ErrorCode[];

export interface CaptchaRule {
  verifier: CaptchaVerifier;
  siteKey: string;
  /** Checks per caller per day before a captcha is required. */
  freeChecks: number;
  /**
   * Checks per caller per day let through unverified while a fail-open provider fails; then 503
   * `captcha_unavailable`. Unset: no bound (tests of other rules).
   */
  failOpenPerDay?: number;
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
  /**
   * Failed checks a caller gets its unit back for per UTC day, all tools together; 0: none.
   * Unset: no bound (tests of other rules).
   */
  refundsPerDay?: number;
  captcha?: CaptchaRule;
  isConfigured: () => boolean;
  /** Why not, when `isConfigured` is false. */
  notConfiguredReason?: () => string | undefined;
  /** Where a check let through unverified, and one refused past the bound, are logged. */
  log?: Logger;
  /**
   * The keyed ids the counters are stored under instead of the caller's subject (an address):
   * the store then holds no address (docs/storage.md). Unset: the subject (tests of other rules).
   */
  callerIds?: {
    idOf(subject: string): Promise<string>;
    /** The id for a read that writes nothing: none while no key exists (nothing counted yet). */
    existingIdOf(subject: string): Promise<string | undefined>;
  };
}

export interface Guard {
  /** The caller's status, read without creating a counter. */
  status(tool: string, subject: string): Promise<QuotaStatus>;
  /** Reads the caller's count once: a POST judges everything on this one reading and its day. */
  read(tool: string, subject: string): Promise<QuotaReading>;
}

export interface QuotaReading {
  status: QuotaStatus;
  /**
   * For a cached result, which takes no unit: throws 403 `captcha_required` / `captcha_failed`
   * when this reading says a captcha is due and it is not solved, or when the caller has used up
   * today's failed verifications (then without asking the provider).
   */
  requireCaptcha(token: string | undefined, callerIp: string): Promise<void>;
  /**
   * For a fresh check: takes one unit in one atomic step (429 `quota_exceeded` when none is left,
   * before any provider is asked); a unit past the free ones needs the captcha solved, else it is
   * given back and the 403 thrown. With `alwaysCaptcha` (what holds a place for months: a watch)
   * every unit needs it, free or not, whenever a provider is configured.
   */
  take(
    token: string | undefined,
    callerIp: string,
    options?: { alwaysCaptcha?: boolean },
  ): Promise<QuotaStatus>;
  /**
   * Gives the unit back when the service refused the check for a fault of its own that no caller
   * can cause (a lying resolver, a full service), or before doing any work.
   */
  refund(): Promise<void>;
  /**
   * Gives back the unit of a check that failed on our DNS before any list was asked, while the
   * caller has refunds left today (`refundsPerDay`, one atomic step of the store): false when
   * they are used up and the unit stays spent.
   */
  refundFailedCheck(): Promise<boolean>;
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
      if (verdict.failedOpen) await boundFailOpen(rule, subject, when);
      return;
    }
    const why =
      verdict.reason === 'rejected'
        ? 'the captcha token was rejected'
        : 'the captcha could not be verified';
    throw new ApiError('captcha_failed', why);
  }

  /**
   * A fail-open provider that fails lets a token through unverified: at most `failOpenPerDay` of a
   * caller's checks a day (all tools together, through the store, so across processes), or
   * while it fails every token would pass.
   */
  async function boundFailOpen(
    rule: CaptchaRule,
    subject: string,
    when: ReturnType<typeof today>,
  ): Promise<void> {
    if (rule.failOpenPerDay === undefined) return;
    const key = `captcha-fail-open:${subject}:${when.day.key}`;
    const used = await store.incrementWithin(key, rule.failOpenPerDay, when.ttl);
    const fields = { provider: rule.verifier.provider, caller: subject };
    if (used === undefined) {
      options.log?.('error', 'captcha provider failing: check refused', fields);
      throw new ApiError(
        'captcha_unavailable',
        'the captcha cannot be verified right now; try again shortly',
      );
    }
    options.log?.('error', 'captcha provider failing: check let through unverified', {
      ...fields,
      used,
      limit: rule.failOpenPerDay,
    });
  }

  const idOf = (subject: string) => options.callerIds?.idOf(subject) ?? subject;

  return {
    async status(tool, caller) {
      const { day } = today();
      // A status read writes nothing, not even the first key of the caller ids.
      const subject = options.callerIds ? await options.callerIds.existingIdOf(caller) : caller;
      if (subject === undefined) return statusFor(0);
      return statusFor(await store.count(quotaKey(tool, subject, day)));
    },

    async read(tool, caller) {
      const when = today();
      const subject = await idOf(caller);
      const key = quotaKey(tool, subject, when.day);
      const count = await store.count(key);
      async function requireSolved(token: string | undefined, callerIp: string): Promise<void> {
        if (token === undefined || token === '') {
          throw new ApiError(
            'captcha_required',
            'a captcha token is required (body field smart-token or header X-Captcha-Token)',
          );
        }
        await verifyCaptcha(captcha!, token, callerIp, subject, when);
      }
      return {
        status: statusFor(count),
        async requireCaptcha(token, callerIp) {
          if (!captcha || count < captcha.freeChecks) return;
          await requireSolved(token, callerIp);
        },
        async take(token, callerIp, takeOptions = {}) {
          const taken = await store.incrementWithin(key, dailyLimit, when.ttl);
          if (taken === undefined) throw quotaExceeded(when.msLeft);
          // The taken unit's number, not an earlier reading, decides: units 1..freeChecks are free.
          if (captcha && (takeOptions.alwaysCaptcha || taken > captcha.freeChecks)) {
            try {
              await requireSolved(token, callerIp);
            } catch (error) {
              await store.increment(key, -1, when.ttl);
              // The status a free unit would show says no captcha is due: this one says it is.
              if (takeOptions.alwaysCaptcha && error instanceof ApiError) {
                throw error.with({
                  ...statusFor(taken - 1),
                  captchaRequired: true,
                  siteKey: captcha.siteKey,
                });
              }
              throw error;
            }
          }
          return statusFor(taken);
        },
        async refund() {
          // The counter of the day the unit was taken from, even if the check ran past midnight.
          await store.increment(key, -1, when.ttl);
        },
        async refundFailedCheck() {
          const { refundsPerDay } = options;
          if (refundsPerDay !== undefined) {
            // Reserved first, never given back: however many failures end at once, at most
            // refundsPerDay units come back (docs/results.md#refunds: failed checks must not be
            // free work).
            const refunds = `refunds:${subject}:${when.day.key}`;
            const reserved =
              refundsPerDay > 0
                ? await store.incrementWithin(refunds, refundsPerDay, when.ttl)
                : undefined;
            if (reserved === undefined) {
              options.log?.('info', 'refunds used up: failed check charged', {
                caller: subject,
                limit: refundsPerDay,
              });
              return false;
            }
          }
          await store.increment(key, -1, when.ttl);
          return true;
        },
      };
    },
  };
}
