import type { Store } from '../store/index.js';
import type { RandomBytes } from './secrets.js';
import { newEventId } from './secrets.js';
import { queues, type WatchRecords } from './records.js';
import type { PendingDelivery, WatchEvent } from './schemas.js';

/**
 * Deliveries waiting in the store: one per event, written before it is due, so a restart loses
 * none (docs/watches.md, "Deliveries").
 */

/** An event as a delivery to be made: a new event id, and the body every attempt sends. */
export function pendingDelivery(
  watchId: string,
  event: WatchEvent,
  random: RandomBytes,
): PendingDelivery {
  return { id: newEventId(random), watch_id: watchId, body: JSON.stringify(event), attempts: 0 };
}

/**
 * Hands deliveries to the delivery queue, due at `at`. Written again for one already handed over
 * (a process stopped between the two steps), a delivery is the same record under the same key.
 */
export async function enqueueDeliveries(
  store: Store,
  records: WatchRecords,
  deliveries: readonly PendingDelivery[],
  at: number,
): Promise<void> {
  for (const delivery of deliveries) {
    await records.putDelivery(delivery);
    await store.putDue(queues.deliveries, delivery.id, at);
  }
}
