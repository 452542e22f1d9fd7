import type { Change } from '../kinds/index.js';
import { type HistoryEntry, maxHistory } from './schemas.js';

/**
 * How much a watch keeps of its changes (docs/watches.md, "History export"): each entry and each
 * event a bounded number of items, the history a bounded number of entries and of characters,
 * so a watch's view stays small however much its target changes and whatever its third parties
 * write (one watch's public view held 545 KB after 9 changes).
 */

/**
 * Listings added, listings removed and mail changes one entry and one event carry at most, each.
 * **Decision**: 64, more than a target's lists (a domain's sender addresses times its lists can
 * be more): the first 64 in their order (by address and zone, by what and subject), the status
 * and the view naming every listing still.
 */
export const maxItemsPerChange = 64;

/**
 * The history's size at most, in characters of its JSON: the newest entries that fit (the newest
 * always) are kept, at most `maxHistory` of them.
 */
export const maxHistoryChars = 64 * 1024;

/** A change with at most `maxItemsPerChange` of each kind of item. */
export function boundedChange(change: Change): Change {
  return {
    added: change.added.slice(0, maxItemsPerChange),
    removed: change.removed.slice(0, maxItemsPerChange),
    ...(change.changes ? { changes: change.changes.slice(0, maxItemsPerChange) } : {}),
  };
}

/** The newest entries (newest first) within `maxHistory` and `maxHistoryChars`. */
export function boundedHistory(entries: readonly HistoryEntry[]): HistoryEntry[] {
  const kept: HistoryEntry[] = [];
  let chars = 2;
  for (const entry of entries.slice(0, maxHistory)) {
    chars += JSON.stringify(entry).length + 1;
    if (kept.length > 0 && chars > maxHistoryChars) break;
    kept.push(entry);
  }
  return kept;
}
