/**
 * What every check answers: its result, or why there is none. `invalid_target` is the caller's
 * (the name does not exist, has no public address, its result is too large); `dns_unavailable`
 * is ours (no DNS answer in time), and the HTTP layer gives the caller's unit back for it.
 */

export type CheckFailure = 'invalid_target' | 'dns_unavailable';

export type CheckOutcome<Result = object> =
  { ok: true; result: Result } | { ok: false; error: CheckFailure; reason: string };
