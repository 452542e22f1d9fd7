import { queues, releasePlaces } from '../model/index.js';
import { liveWatch, type OperationContext } from './context.js';
import { notFound, type WatchFailure } from './errors.js';
import { mayAct, type WatchOwner } from './owner.js';

/**
 * Ends a live watch now: its keys, its place in the queue and its places under the caps; its
 * pending deliveries find no watch and are dropped unsent. A subsystem removes only its own.
 */
export async function removeWatch(
  context: OperationContext,
  id: string,
  owner?: WatchOwner,
): Promise<{ ok: true } | WatchFailure> {
  const watch = await liveWatch(context, id);
  if (!watch || !mayAct(watch, owner)) return notFound();
  // The queue entry first: a runner that claims the watch meanwhile finds no configuration and
  // lets it go; pending deliveries find none either and are dropped unsent.
  await context.store.removeDue(queues.checks, id);
  await context.records.forget(id);
  await releasePlaces(context.store, watch);
  return { ok: true };
}
