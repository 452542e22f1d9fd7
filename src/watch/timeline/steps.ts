/**
 * A watch's history read as a line over time (docs/watches.md, "Chart and strip"): how many
 * listings the target had from each change to the next, and which of the last days it was listed
 * on. Pure: the watch page draws the steps as a chart, the live card the days as a strip.
 */

/** A listing as history entries and the status name it: a list, and a domain's sender address. */
export interface ListingKey {
  zone: string;
  address?: string;
}

/** A history entry as far as the line needs it (newest first in a watch's history). */
export interface TimelineEntry {
  at: string;
  added: readonly ListingKey[];
  removed: readonly ListingKey[];
}

/** From `at` until the next step (or the line's end), the target was on `count` lists. */
export interface Step {
  at: string;
  count: number;
}

const keyOf = (listing: ListingKey) => `${listing.address ?? ''} ${listing.zone}`;

/**
 * The steps from `start` to now, oldest first: read back from where the target is listed now
 * through each change (a change's added listings were not there before it, its removed ones
 * were). `history` is newest first, as a watch keeps it; entries before `start` are left out.
 * A history that lost entries (over its 100) starts where its oldest entry starts: pass that
 * entry's time as `start`.
 */
export function listingSteps(
  listedNow: readonly ListingKey[],
  history: readonly TimelineEntry[],
  start: string,
): Step[] {
  const listed = new Set(listedNow.map(keyOf));
  const steps: Step[] = [];
  const startMs = Date.parse(start);
  for (const entry of history) {
    if (Date.parse(entry.at) < startMs) break;
    steps.push({ at: entry.at, count: listed.size });
    for (const listing of entry.added) listed.delete(keyOf(listing));
    for (const listing of entry.removed) listed.add(keyOf(listing));
  }
  steps.push({ at: start, count: listed.size });
  return steps.reverse();
}

/** A day of the strip: listed at some time that day, clean all of it, or before the watch began. */
export type DayState = 'listed' | 'clean' | 'none';

const dayMs = 86_400_000;

/**
 * The last `days` UTC days up to `end`'s day, oldest first: `listed` when the target was on a
 * list at any moment of the day the watch saw, `clean` when on none, `none` for a day wholly
 * before the first step or after `end`.
 */
export function dayStrip(steps: readonly Step[], end: string, days = 30): DayState[] {
  const endMs = Date.parse(end);
  const lastDay = Math.floor(endMs / dayMs) * dayMs;
  const startMs = steps.length > 0 ? Date.parse(steps[0]!.at) : endMs;
  const strip: DayState[] = [];
  for (let index = days - 1; index >= 0; index--) {
    const from = Math.max(lastDay - index * dayMs, startMs);
    const to = Math.min(lastDay - index * dayMs + dayMs, endMs + 1);
    if (from >= to) {
      strip.push('none');
      continue;
    }
    strip.push(countsIn(steps, from, to).some((count) => count > 0) ? 'listed' : 'clean');
  }
  return strip;
}

/** The counts the steps hold at some moment of [from, to). */
function countsIn(steps: readonly Step[], from: number, to: number): number[] {
  const counts: number[] = [];
  steps.forEach((step, index) => {
    const stepFrom = Date.parse(step.at);
    const next = steps[index + 1];
    const stepTo = next === undefined ? Number.POSITIVE_INFINITY : Date.parse(next.at);
    if (stepFrom < to && stepTo > from) counts.push(step.count);
  });
  return counts;
}
