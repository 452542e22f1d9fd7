import {
  ApiError,
  type ErrorCode,
  guardErrors,
  type QuotaReading,
  type QuotaStatus,
  storeErrors,
} from '../../http/index.js';
import {
  type CheckFailure,
  type CheckReadiness,
  checkFailures,
  confirmedCheckFailures,
  notReady,
} from '../../reputation/index.js';
import { chargeFailedCheck } from './refunds.js';

/**
 * A fresh check as a route runs it, for every tool that takes a unit of quota for one (the
 * snapshot tools' POSTs, a watch's creation): the service ready (before any quota is read), the
 * caller's unit taken (the captcha asked only of a unit past the free ones), the check run (beside
 * a confirmation of the resolver: `runConfirmed`, src/reputation/checks/confirmed-check.ts), and
 * the unit settled by how it ended (docs/results.md, Refunds): kept for a result, charged or given
 * back by `chargeFailedCheck` for the check's own failure, given back for any refusal that is not
 * the check's (the resolver caught lying, a cap, a webhook refused, a fault of the service).
 */

/** Every code a fresh check may answer, beside those of reading its body. */
export const freshCheckErrors = [
  ...guardErrors,
  ...confirmedCheckFailures,
  ...storeErrors,
] as const satisfies readonly ErrorCode[];

/** What a check's run may refuse with: one of the API's codes, and why. */
export interface Refusal {
  ok: false;
  error: ErrorCode;
  reason: string;
  /** `dns_unavailable`: the lists it asked, which decide whether it is charged. */
  listsAsked?: number;
  /** Seconds until it may succeed (a watch's `email_limit`): its Retry-After. */
  retryAfterS?: number;
}

/** The caller's unit, read once by the route (`Guard.read`), and what takes it. */
export interface Payment {
  reading: QuotaReading;
  captchaToken: string | undefined;
  /** The caller's address, for the captcha provider. */
  address: string;
  /** A captcha on every unit, free or not, when a provider is set (what holds a place: a watch). */
  alwaysCaptcha?: boolean;
}

const ownFailures: ReadonlySet<string> = new Set<CheckFailure>(checkFailures);

function isRefusal(outcome: { ok: boolean }): outcome is Refusal {
  return !outcome.ok;
}

/** 503 `not_configured` while the service may not check: asked before any quota is read. */
export function requireReady(readiness: CheckReadiness): void {
  const notYet = notReady(readiness);
  if (notYet) throw new ApiError(notYet.error, notYet.reason);
}

/**
 * Takes the caller's unit, runs `check`, and settles the unit: the success and the quota status
 * it cost, or the refusal thrown as its ApiError (after the settling, so the error's quota fields
 * show it).
 *
 * @example
 * requireReady(deps);
 * const reading = await deps.guard.read(tool, subject);
 * const { outcome, quota } = await chargedCheck({ reading, captchaToken, address }, () =>
 *   runConfirmed(deps, () => checkIp(deps, target)),
 * );
 */
export async function chargedCheck<Outcome extends { ok: true } | Refusal>(
  payment: Payment,
  check: () => Promise<Outcome>,
): Promise<{ outcome: Exclude<Outcome, Refusal>; quota: QuotaStatus }> {
  const { reading } = payment;
  // The unit first, then the captcha if that unit is past the free ones: one atomic step
  // decides both, and nothing left is a 429 without a call to the provider.
  const quota = await reading.take(
    payment.captchaToken,
    payment.address,
    payment.alwaysCaptcha ? { alwaysCaptcha: true } : {},
  );
  const outcome = await check().catch(async (error: unknown) => {
    await reading.refund();
    throw error;
  });
  if (isRefusal(outcome)) {
    if (ownFailures.has(outcome.error)) await chargeFailedCheck(reading, outcome);
    else await reading.refund();
    const wait = outcome.retryAfterS;
    throw new ApiError(
      outcome.error,
      outcome.reason,
      wait === undefined ? {} : { 'Retry-After': String(wait) },
    );
  }
  return { outcome: outcome as Exclude<Outcome, Refusal>, quota };
}
