import type { Store } from '../store/store.js';
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

/**
 * Where a watch lives in the store (docs/watches.md, "Store layout"). Its configuration, state
 * and webhook status are three keys, each written by one party (create and PATCH; the re-checks;
 * the deliveries), so a PATCH and a re-check never overwrite each other. They live until the
 * watch has been ended for `endedKeptMs`, so its badge can say it ended.
 */

export const queues = {
  /** Watches, each due at its next check. */
  checks: 'watch-queue:checks',
  /** Pending deliveries (by event id), each due at its next attempt. */
  deliveries: 'watch-queue:deliveries',
} as const;

/** The set of every live watch (the service-wide cap, WATCH_MAX). */
export const allWatchesKey = 'watches';
/** The set of a caller's live watches (WATCH_PER_CALLER), by the hash of its quota subject. */
export const callerWatchesKey = (callerHash: string) => `watches-of:${callerHash}`;

/** How long an ended watch still answers (its badge says it ended) before it is forgotten. */
export const endedKeptMs = 30 * 86_400_000;

/** A pending delivery outlives its last retry (24 h after the previous ones) by a margin. */
const deliveryTtlMs = 3 * 86_400_000;

const keys = {
  config: (id: string) => `watch:${id}`,
  state: (id: string) => `watch-state:${id}`,
  webhook: (id: string) => `watch-webhook:${id}`,
  delivery: (eventId: string) => `watch-delivery:${eventId}`,
};

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
    state: (id: string) => read(keys.state(id), (v) => watchStateSchema.parse(v)),
    putState: (watch: WatchConfig, state: WatchState) =>
      store.set(keys.state(watch.id), JSON.stringify(state), ttlOf(watch)),
    async webhookStatus(id: string): Promise<WebhookStatus> {
      return (await read(keys.webhook(id), (v) => webhookStatusSchema.parse(v))) ?? idleWebhook;
    },
    putWebhookStatus: (watch: WatchConfig, status: WebhookStatus) =>
      store.set(keys.webhook(watch.id), JSON.stringify(status), ttlOf(watch)),
    delivery: (eventId: string) =>
      read(keys.delivery(eventId), (v) => pendingDeliverySchema.parse(v)),
    putDelivery: (delivery: PendingDelivery) =>
      store.set(keys.delivery(delivery.id), JSON.stringify(delivery), deliveryTtlMs),
    deleteDelivery: (eventId: string) => store.delete(keys.delivery(eventId)),
    /** Forgets a watch's three keys (its queue entry and cap places are the caller's to end). */
    async forget(id: string): Promise<void> {
      await Promise.all([
        store.delete(keys.config(id)),
        store.delete(keys.state(id)),
        store.delete(keys.webhook(id)),
      ]);
    },
  };
}

/** Whether a watch has ended (not renewed by a PATCH within WATCH_TTL_DAYS). */
export function hasEnded(watch: Pick<WatchConfig, 'expires_at'>, at: number): boolean {
  return Date.parse(watch.expires_at) <= at;
}
