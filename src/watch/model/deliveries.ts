import type { Store } from '../../store/index.js';
import type { RandomBytes } from './secrets.js';
import { newEventId } from './secrets.js';
import { queues, type WatchRecords } from './records.js';
import { retryDelay } from './schedule.js';
import type { PendingDelivery, WatchEvent } from './schemas.js';

/**
 * Deliveries waiting in the store: one per event, written before it is due, so a restart loses
 * none (docs/watches.md, "Deliveries"). Each is in the delivery queue at its next attempt, and in
 * two indexes by the time it was queued: its watch's, which holds at most
 * WATCH_PENDING_DELIVERIES (the oldest is dropped), and the service's, whose earliest is the
 * oldest pending delivery (docs/watches.md, "Fair delivery").
 */

/** Why a pending delivery was let go unsent (the metrics' dropped deliveries by reason). */
export type DropReason = 'cap' | 'paused';

export interface QueueRules {
  /** Deliveries a watch may have waiting (WATCH_PENDING_DELIVERIES). */
  pendingPerWatch: number;
  onDropped?: (reason: DropReason) => void;
}

/** An event as a delivery to be made: a new event id, and the body every attempt sends. */
export function pendingDelivery(
  watchId: string,
  event: WatchEvent,
  random: RandomBytes,
  queuedAt: number,
): PendingDelivery {
  return {
    id: newEventId(random),
    watch_id: watchId,
    body: JSON.stringify(event),
    attempts: 0,
    queued_at: queuedAt,
    ...(event.type === 'watch.test' ? { test: true } : {}),
  };
}

/**
 * Hands deliveries to the delivery queue, due at `at`. Written again for one already handed over
 * (a process stopped between the two steps), a delivery is the same record under the same keys.
 * A watch past its cap loses its oldest pending deliveries, never the service its memory.
 */
export async function enqueueDeliveries(
  store: Store,
  records: WatchRecords,
  deliveries: readonly PendingDelivery[],
  at: number,
  rules: QueueRules,
): Promise<void> {
  for (const delivery of deliveries) {
    const queuedAt = delivery.queued_at ?? at;
    await records.putDelivery(delivery);
    await store.putDue(queues.pendingOf(delivery.watch_id), delivery.id, queuedAt);
    await store.putDue(queues.pendingByAge, delivery.id, queuedAt);
    await store.putDue(queues.deliveries, delivery.id, at);
    await dropPastCap(store, records, delivery.watch_id, at, rules);
  }
}

/**
 * Lets go of the oldest deliveries of a watch past its cap. The index is a due queue by queued
 * time: claiming from it gives the oldest first, atomically, so two processes queueing at once
 * never drop the same one twice.
 */
async function dropPastCap(
  store: Store,
  records: WatchRecords,
  watchId: string,
  now: number,
  rules: QueueRules,
): Promise<void> {
  const index = queues.pendingOf(watchId);
  const excess = (await store.countDue(index)) - rules.pendingPerWatch;
  if (excess <= 0) return;
  for (const oldest of await store.claimDue(index, now, excess, 60_000)) {
    await forgetDelivery(store, records, watchId, oldest.id);
    rules.onDropped?.('cap');
  }
}

/** Takes a delivery out of the store: its record, the queue, both indexes, its test's place. */
export async function forgetDelivery(
  store: Store,
  records: WatchRecords,
  watchId: string,
  eventId: string,
): Promise<void> {
  await records.deleteDelivery(eventId);
  await store.removeDue(queues.deliveries, eventId);
  await store.removeDue(queues.pendingOf(watchId), eventId);
  await store.removeDue(queues.pendingByAge, eventId);
  await records.releaseTest(watchId, eventId);
}

/** What a retry is written with: the store, the delays, who hears of the due time it puts. */
export interface RetryRules {
  store: Store;
  records: WatchRecords;
  retryDelaysMs: readonly number[];
  onScheduled: (dueAt: number) => void;
}

/** After a failed attempt: the next at the retry delays (5 s, 1 h, 24 h), or none after the last. */
export async function retryOrDrop(
  rules: RetryRules,
  tried: PendingDelivery,
  now: number,
  done: () => Promise<void>,
): Promise<void> {
  const delay = retryDelay(tried.attempts, rules.retryDelaysMs);
  if (delay === undefined) return done();
  await rules.records.putDelivery(tried);
  const due = now + delay;
  await rules.store.putDue(queues.deliveries, tried.id, due);
  rules.onScheduled(due);
}
