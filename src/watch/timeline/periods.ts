import type { ListingKey, TimelineEntry } from './steps.js';

/**
 * How long a listing lasted (docs/watches.md, "Listed since"): a delisting's alert says it, and
 * the history's CSV gives it on the row that ended the listing. A listing's start is read back
 * from the history, since the watch forgets when a listing began once it ends: the entry that
 * added it, the newest before `endedAt`; with none, the listing was there at the first check,
 * which the watch knows only while its history has lost no entry (`firstCheck`).
 */

const same = (a: ListingKey, b: ListingKey) => a.zone === b.zone && a.address === b.address;

/**
 * When the listing that ended at `endedAt` began: the time of the newest entry before it that
 * added it, else `firstCheck` (pass it only when the history is whole: no entry dropped past
 * its cap), else undefined: the watch does not know. `history` is newest first.
 */
export function listingStart(
  history: readonly TimelineEntry[],
  listing: ListingKey,
  endedAt: string,
  firstCheck?: string,
): string | undefined {
  const endedMs = Date.parse(endedAt);
  for (const entry of history) {
    if (Date.parse(entry.at) >= endedMs) continue;
    if (entry.added.some((added) => same(added, listing))) return entry.at;
    // An earlier delisting of it with no listing after: the history does not hold this one's start.
    if (entry.removed.some((removed) => same(removed, listing))) return undefined;
  }
  return firstCheck;
}

/** Milliseconds from `start` to `end`, never negative. */
export function lastedMs(start: string, end: string): number {
  return Math.max(0, Date.parse(end) - Date.parse(start));
}
