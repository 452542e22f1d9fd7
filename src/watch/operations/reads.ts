import {
  allWatchesKey,
  hashOf,
  queues,
  sameHash,
  type WatchView,
  watchView,
} from '../model/index.js';
import { liveWatch, type OperationContext } from './context.js';

/** What the routes and the metrics read of the watches, changing nothing. */

/**
 * The public view; undefined for an unknown watch (an ended one says `ended`). The last
 * delivery's outcome only with `withDelivery` (the manage key's holder asks).
 */
export async function viewWatch(
  context: OperationContext,
  id: string,
  options: { withDelivery?: boolean } = {},
): Promise<WatchView | undefined> {
  const { records } = context;
  const watch = await records.config(id);
  if (!watch) return undefined;
  const [state, webhook, lastEmail] = await Promise.all([
    records.state(id),
    records.webhookStatus(id),
    options.withDelivery ? records.lastEmail(id) : undefined,
  ]);
  // The outcome of the last delivery (refused, failed, its status) tells whoever triggers
  // deliveries what answers at the webhook's address: its manage key's holder only, who sees
  // the last e-mail's outcome and why it failed too.
  const shown = options.withDelivery ? webhook : { ...webhook, last_delivery: null };
  return watchView(watch, state, shown, context.now(), {
    wholeEmail: options.withDelivery === true,
    ...(lastEmail ? { lastEmail } : {}),
  });
}

export type KeyCheck = 'ok' | 'wrong' | 'not_found';

/** Whether `key` is the manage key of a live watch (compared as hashes, in constant time). */
export async function checkManageKey(
  context: OperationContext,
  id: string,
  key: string,
): Promise<KeyCheck> {
  const watch = await liveWatch(context, id);
  if (!watch) return 'not_found';
  return sameHash(await hashOf(key, context.digest), watch.manage_key_hash) ? 'ok' : 'wrong';
}

/** How many watches are live (the set WATCH_MAX caps). */
export async function countLive(context: OperationContext): Promise<number> {
  return (await context.store.members(allWatchesKey)).length;
}

/** The pending deliveries of every watch, and the age of the oldest (the metrics' gauges). */
export async function deliveryQueue(
  context: OperationContext,
): Promise<{ pending: number; oldestAgeSeconds: number }> {
  const [pending, oldest] = await Promise.all([
    context.store.countDue(queues.deliveries),
    context.store.earliestDue(queues.pendingByAge),
  ]);
  const oldestAgeSeconds = oldest === undefined ? 0 : Math.max(0, context.now() - oldest) / 1000;
  return { pending, oldestAgeSeconds };
}
