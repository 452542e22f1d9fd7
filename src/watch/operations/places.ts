import {
  allWatchesKey,
  callerWatchesKey,
  networkWatchesKey,
  releasePlaces,
  type WatchConfig,
} from '../model/index.js';
import type { OperationContext } from './context.js';
import { fail, type WatchFailure } from './errors.js';
import { placesOf, type Places, type WatchOwner } from './owner.js';

/**
 * A watch's places under the caps (docs/watches.md, "Limits"): its owner's, its owner's
 * network's, and the service's (WATCH_MAX), each a set of watch ids in the store, taken atomically
 * within its cap on every backend.
 */

/**
 * Takes a place for `id` under every cap, or none: the owner's, its network's, then the
 * service's. A set under the previous key's id counts too (src/operations/caller-ids.ts), so a
 * key's rotation frees nobody's places; `id` itself, already counted there, does not count twice.
 */
export async function reservePlace(
  context: OperationContext,
  id: string,
  places: Places,
): Promise<WatchFailure | undefined> {
  const { store, limits } = context;
  const taken: string[] = [];
  const giveBack = () => Promise.all(taken.map((key) => store.removeMembers(key, [id])));
  for (const cap of places.caps) {
    const [current, ...older] = cap.keys;
    let limit = cap.limit;
    for (const key of older) {
      limit -= (await store.members(key)).filter((member) => member !== id).length;
    }
    if (limit < 1 || !(await store.addMemberWithin(current!, id, limit, limits.ttlMs))) {
      await giveBack();
      return fail('watch_limit', cap.reason);
    }
    taken.push(current!);
  }
  if (!(await store.addMemberWithin(allWatchesKey, id, limits.max, limits.ttlMs))) {
    await giveBack();
    return fail(
      'watch_capacity',
      `the service keeps ${limits.max} live watches (WATCH_MAX): try later`,
    );
  }
  return undefined;
}

/** Gives back what `reservePlace` took, when the watch is not kept after all. */
export function releasePlace(context: OperationContext, id: string, places: Places) {
  return releasePlaces(context.store, { id, ...places.held });
}

/**
 * A renewal's places: the renewing owner's, taken again within every cap (the same owner under
 * the same key keeps its place; another one, or the same after the key rotated, takes a place of
 * its own and the old one is given back), so a renewal keeps a watch alive only as long as
 * someone within the caps renews it. Without an owner (the engine's own callers), the places the
 * watch holds are renewed as they are.
 */
export async function renewPlaces(
  context: OperationContext,
  watch: WatchConfig,
  owner: WatchOwner | undefined,
): Promise<Places['held'] | WatchFailure> {
  const { store, limits } = context;
  const held: Places['held'] = {
    caller_hash: watch.caller_hash,
    ...(watch.network_hash === undefined ? {} : { network_hash: watch.network_hash }),
  };
  if (owner !== undefined) {
    const places = await placesOf(context, owner);
    const next = places.held;
    if (next.caller_hash !== held.caller_hash || next.network_hash !== held.network_hash) {
      const refused = await reservePlace(context, watch.id, places);
      if (refused) return refused;
      if (next.caller_hash !== held.caller_hash) {
        await store.removeMembers(callerWatchesKey(held.caller_hash), [watch.id]);
      }
      if (held.network_hash !== undefined && next.network_hash !== held.network_hash) {
        await store.removeMembers(networkWatchesKey(held.network_hash), [watch.id]);
      }
      return next;
    }
  }
  await store.addMembers(callerWatchesKey(held.caller_hash), [watch.id], limits.ttlMs);
  if (held.network_hash !== undefined) {
    await store.addMembers(networkWatchesKey(held.network_hash), [watch.id], limits.ttlMs);
  }
  await store.addMembers(allWatchesKey, [watch.id], limits.ttlMs);
  return held;
}
