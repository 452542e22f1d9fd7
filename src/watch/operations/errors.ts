import { confirmedCheckFailures } from '../../reputation/index.js';

/**
 * What each operation may refuse, by its error code (docs/watch-engine.md, "Operations"): the
 * routes document exactly these (src/tools/watch/), and the operations' failures are typed from
 * them, so a refusal not named here does not compile. `watch_limit` (429): the owner has its cap
 * of live watches (WATCH_PER_CALLER), or its network WATCH_PER_NETWORK; `watch_capacity` (503):
 * the service has WATCH_MAX; `test_pending` (429): the watch's test is still pending.
 */

/**
 * What `email` on POST and PATCH may be refused with: no sender (`email_unavailable`), not an
 * address (`invalid_email`), or the day's confirmation messages used (`email_limit`, 429).
 */
const emailErrors = ['invalid_email', 'email_unavailable', 'email_limit'] as const;

export const watchErrors = {
  /** Its first check's (a confirmed check, as a re-check's), and its own. */
  create: [
    ...confirmedCheckFailures,
    'invalid_request',
    'invalid_webhook',
    'watch_limit',
    'watch_capacity',
    ...emailErrors,
  ],
  /** A renewal by another owner takes places under the caps again. */
  update: [
    'not_found',
    'invalid_request',
    'invalid_webhook',
    'watch_limit',
    'watch_capacity',
    ...emailErrors,
  ],
  remove: ['not_found'],
  sendTest: ['not_found', 'invalid_request', 'test_pending'],
  /** The POST of a confirmation link: its code, or its 24 hours, may be past. */
  confirmEmail: ['not_found', 'email_code_wrong', 'email_link_expired'],
  unsubscribeEmail: ['not_found', 'email_code_wrong'],
  /** A subsystem's notice: one channel, a webhook where one may point, e-mail where it is sent. */
  notify: ['invalid_request', 'invalid_webhook', 'email_unavailable'],
  /** A subsystem's own confirmation of an address: as a watch's `email`. */
  confirmAddress: emailErrors,
} as const;

export type WatchError = (typeof watchErrors)[keyof typeof watchErrors][number];

export type WatchFailure = {
  ok: false;
  error: WatchError;
  reason: string;
  /** `dns_unavailable`: the lists its first check asked (check-outcome.ts), which the route charges. */
  listsAsked?: number;
  /** `test_pending`, `email_limit`: seconds until it may succeed (Retry-After). */
  retryAfterS?: number;
};

export const fail = (error: WatchError, reason: string): WatchFailure => ({
  ok: false,
  error,
  reason,
});

export const notFound = () =>
  fail('not_found', 'no watch with this id (unknown, deleted or ended)');
