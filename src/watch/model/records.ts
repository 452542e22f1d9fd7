import type { Store } from '../../store/index.js';
import { type EmailDelivery, emailDeliverySchema } from '../email/index.js';
import { pauseAfterFailedEvents } from './schedule.js';
import {
  type PendingDelivery,
  pendingDeliverySchema,
  type WatchConfig,
  watchConfigSchema,
  type WatchState,
  watchStateSchema,
  type WebhookStatus,
  webhookStatusSchema,
} from './schemas.js';
import { currentDelivery, currentState } from './stored-forms.js';

const lastDeliverySchema = webhookStatusSchema.shape.last_delivery;
type LastDelivery = WebhookStatus['last_delivery'];

/**
 * Where a watch lives in the store (docs/watch-engine.md, "Storage and migration"). Its configuration, state
 * and webhook status are apart, each written by one party (create and PATCH; the re-checks; the
 * deliveries), so a PATCH and a re-check never overwrite each other. The events whose every
 * attempt failed are members of a set (an atomic add from any process, where a count read and
 * written back could lose one): deliveries pause when it holds `pauseAfterFailedEvents`. All of
 * it lives until the watch has been ended for `endedKeptMs`, so its badge can say it ended.
 */

export const queues = {
  /** Watches, each due at its next check. */
  checks: 'watch-queue:checks',
  /** Pending deliveries (by event id), each due at its next attempt. */
  deliveries: 'watch-queue:deliveries',
  /**
   * Pending deliveries by the time they were queued, never claimed: its earliest is the oldest
   * pending delivery (the metrics' age of the oldest).
   */
  pendingByAge: 'watch-queue:pending-by-age',
  /** A watch's pending deliveries by the time they were queued: WATCH_PENDING_DELIVERIES. */
  pendingOf: (watchId: string) => `watch-queue:pending-of:${watchId}`,
} as const;

/** The set of every live watch (the service-wide cap, WATCH_MAX). */
export const allWatchesKey = 'watches';
/** The set of a caller's live watches (WATCH_PER_CALLER), by the hash of its quota subject. */
export const callerWatchesKey = (callerHash: string) => `watches-of:${callerHash}`;
/** The set of the live watches of a caller's network (WATCH_PER_NETWORK), by its id. */
export const networkWatchesKey = (networkHash: string) => `watches-in:${networkHash}`;

/** How long an ended watch still answers (its badge says it ended) before it is forgotten. */
export const endedKeptMs = 30 * 86_400_000;

/** A pending delivery outlives its last retry (24 h after the previous ones) by a margin. */
const deliveryTtlMs = 3 * 86_400_000;

const keys = {
  config: (id: string) => `watch:${id}`,
  state: (id: string) => `watch-state:${id}`,
  lastDelivery: (id: string) => `watch-delivery-outcome:${id}`,
  lastEmail: (id: string) => `watch-email-outcome:${id}`,
  failedEvents: (id: string) => `watch-failed-events:${id}`,
  delivery: (eventId: string) => `watch-delivery:${eventId}`,
  /** The watch's pending test, at most one (docs/watches.md, "Fair delivery"). */
  test: (id: string) => `watch-test:${id}`,
  /** The watch's one attempt in flight, at most one. */
  attempt: (id: string) => `watch-attempt:${id}`,
  /** The watch's deliveries put off while its attempt was in flight: due when it ends. */
  waiting: (id: string) => `watch-waiting:${id}`,
};

/**
 * How long a pending test holds its watch's place when nothing lets it go: a process that
 * stopped with the test's delivery record lost. Its delivery ending lets it go before.
 */
const testHeldMs = 3_600_000;

export const idleWebhook: WebhookStatus = { last_delivery: null, failed_events: 0, paused: false };

export type WatchRecords = ReturnType<typeof watchRecords>;

export function watchRecords(store: Store, now: () => number) {
  /** What is kept of a watch lives until it has been ended for `endedKeptMs`. */
  const ttlOf = (watch: Pick<WatchConfig, 'expires_at'>) =>
    Math.max(1, Date.parse(watch.expires_at) + endedKeptMs - now());
  const read = async <T>(key: string, parse: (value: unknown) => T) => {
    const text = await store.get(key);
    return text === undefined ? undefined : parse(JSON.parse(text));
  };
  return {
    config: (id: string) => read(keys.config(id), (v) => watchConfigSchema.parse(v)),
    putConfig: (watch: WatchConfig) =>
      store.set(keys.config(watch.id), JSON.stringify(watch), ttlOf(watch)),
    // A state or a delivery an earlier version stored is read in its current form.
    state: (id: string) => read(keys.state(id), (v) => watchStateSchema.parse(currentState(v))),
    putState: (watch: WatchConfig, state: WatchState) =>
      store.set(keys.state(watch.id), JSON.stringify(state), ttlOf(watch)),
    async webhookStatus(id: string): Promise<WebhookStatus> {
      const [last, failed] = await Promise.all([
        read(keys.lastDelivery(id), (v) => lastDeliverySchema.parse(v)),
        store.members(keys.failedEvents(id)),
      ]);
      return {
        last_delivery: last ?? null,
        failed_events: failed.length,
        paused: failed.length >= pauseAfterFailedEvents,
      };
    },
    putLastDelivery: (watch: WatchConfig, last: NonNullable<LastDelivery>) =>
      store.set(keys.lastDelivery(watch.id), JSON.stringify(last), ttlOf(watch)),
    /** The last attempt at one of the watch's e-mails (the manage key's holder sees it). */
    lastEmail: (id: string) => read(keys.lastEmail(id), (v) => emailDeliverySchema.parse(v)),
    putLastEmail: (watch: WatchConfig, last: EmailDelivery) =>
      store.set(keys.lastEmail(watch.id), JSON.stringify(last), ttlOf(watch)),
    /** An event whose every attempt failed. */
    addFailedEvent: (watch: WatchConfig, eventId: string) =>
      store.addMembers(keys.failedEvents(watch.id), [eventId], ttlOf(watch)),
    /** A delivered event, or a PATCH of the webhook, starts the count of failures again. */
    async clearFailedEvents(id: string): Promise<void> {
      const key = keys.failedEvents(id);
      await store.removeMembers(key, await store.members(key));
    },
    delivery: (eventId: string) =>
      read(keys.delivery(eventId), (v) => pendingDeliverySchema.parse(currentDelivery(v))),
    putDelivery: (delivery: PendingDelivery) =>
      store.set(keys.delivery(delivery.id), JSON.stringify(delivery), deliveryTtlMs),
    deleteDelivery: (eventId: string) => store.delete(keys.delivery(eventId)),
    /** Takes the watch's one place for a pending test: false when a test is pending already. */
    holdTest: (id: string, eventId: string) =>
      store.addMemberWithin(keys.test(id), eventId, 1, testHeldMs),
    releaseTest: (id: string, eventId: string) => store.removeMembers(keys.test(id), [eventId]),
    /**
     * Takes the watch's one attempt in flight for `ttlMs` (the delivery lease, so a claimer that
     * died lets it go with its lease): false while another attempt of the watch is under way.
     */
    holdAttempt: (id: string, eventId: string, ttlMs: number) =>
      store.addMemberWithin(keys.attempt(id), eventId, 1, ttlMs),
    releaseAttempt: (id: string, eventId: string) =>
      store.removeMembers(keys.attempt(id), [eventId]),
    /** A delivery put off until the watch's attempt in flight ends. */
    addWaiting: (id: string, eventId: string, ttlMs: number) =>
      store.addMembers(keys.waiting(id), [eventId], ttlMs),
    /** The deliveries put off so far, taken out of the set. */
    async takeWaiting(id: string): Promise<string[]> {
      const waiting = await store.members(keys.waiting(id));
      if (waiting.length > 0) await store.removeMembers(keys.waiting(id), waiting);
      return waiting;
    },
    /** Forgets what a watch keeps (its queue entry and cap places are the caller's to end). */
    async forget(id: string): Promise<void> {
      await Promise.all([
        store.delete(keys.config(id)),
        store.delete(keys.state(id)),
        store.delete(keys.lastDelivery(id)),
        store.delete(keys.lastEmail(id)),
        this.clearFailedEvents(id),
      ]);
    },
  };
}

/** Gives a watch's places under the per-caller, per-network and service-wide caps back. */
export async function releasePlaces(
  store: Store,
  watch: Pick<WatchConfig, 'id' | 'caller_hash' | 'network_hash'>,
): Promise<void> {
  await store.removeMembers(callerWatchesKey(watch.caller_hash), [watch.id]);
  if (watch.network_hash !== undefined) {
    await store.removeMembers(networkWatchesKey(watch.network_hash), [watch.id]);
  }
  await store.removeMembers(allWatchesKey, [watch.id]);
}

/** Whether a watch has ended (not renewed by a PATCH within WATCH_TTL_DAYS). */
export function hasEnded(watch: Pick<WatchConfig, 'expires_at'>, at: number): boolean {
  return Date.parse(watch.expires_at) <= at;
}
