/**
 * What every check answers: its result, or why there is none. `invalid_target` is the caller's
 * (the name does not exist, has no public address, its result is too large); `dns_unavailable`
 * is ours (no DNS answer in time). Whether the caller gets the unit back for it is the HTTP
 * layer's rule (docs/results.md, Refunds): it turns on `listsAsked`, the work the check did.
 */

/** The codes a check fails with: the target's fault, or no DNS answer in time. */
export const checkFailures = ['invalid_target', 'dns_unavailable'] as const;
export type CheckFailure = (typeof checkFailures)[number];

export type FailedCheck =
  | { ok: false; error: 'invalid_target'; reason: string }
  | {
      ok: false;
      error: 'dns_unavailable';
      reason: string;
      /**
       * How many lists (DNSBL zones) were sent a query before the check gave up: 0 when none
       * was, as when a host name does not resolve. A failed check that asked lists did their
       * work (docs/results.md#refunds: 200 failed domain checks sent 1,016 list queries).
       */
      listsAsked: number;
    };

export type CheckOutcome<Result = object> = { ok: true; result: Result } | FailedCheck;
