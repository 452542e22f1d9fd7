import type { Observation } from './observation.js';
import type { KnownList, KnownLists, ListingChange } from './schemas.js';

/**
 * Change detection (docs/watches.md, "Changes"): a change is a list whose status moves between
 * listed and not listed. A list that said nothing this time (a timeout, a hold, disabled, an
 * error) is not in the observation and keeps its last known status: silence is never a delisting
 * nor a listing. The first check records what it heard and reports nothing. Pure functions.
 */

/** What the watch knows of its target's lists, and for a domain of each sender address's. */
export interface Known {
  lists: KnownLists;
  addresses?: Record<string, KnownLists>;
}

export interface Change {
  /** Lists that list the target (or a sender address) now and did not before. */
  added: ListingChange[];
  /** Lists that listed it before and answer now that they do not. */
  removed: ListingChange[];
}

export const noChange: Change = { added: [], removed: [] };

/**
 * What the watch knows after an observation, and what changed. `previous` is undefined for the
 * first check. A list first heard after the first check (it was silent until now, or was added
 * to the zone list) that lists the target counts as added: a listing is news however it came; one
 * that does not list it is recorded without a word. A domain's sender address no longer checked
 * (its SPF or MX changed) is forgotten without a change; a new one is read like a list first
 * heard, list by list.
 */
export function recordObservation(
  previous: Known | undefined,
  observation: Observation,
): { known: Known; change: Change } {
  const change: Change = { added: [], removed: [] };
  const lists = merge(previous?.lists, observation.lists, previous !== undefined, change);
  let addresses: Record<string, KnownLists> | undefined;
  if (observation.addresses) {
    addresses = {};
    for (const [address, heard] of Object.entries(observation.addresses)) {
      const before = previous?.addresses?.[address];
      addresses[address] = merge(before, heard, previous !== undefined, change, address);
    }
  }
  change.added.sort(byAddressAndZone);
  change.removed.sort(byAddressAndZone);
  return { known: { lists, ...(addresses ? { addresses } : {}) }, change };
}

function merge(
  before: KnownLists | undefined,
  heard: KnownLists,
  reporting: boolean,
  change: Change,
  address?: string,
): KnownLists {
  const known: KnownLists = { ...before };
  for (const [zone, now] of Object.entries(heard)) {
    const was = before?.[zone];
    known[zone] = now;
    if (!reporting || was?.status === now.status) continue;
    if (now.status === 'listed') change.added.push(listingChange(zone, now, address));
    else if (was) change.removed.push(listingChange(zone, was, address));
  }
  return known;
}

function listingChange(zone: string, list: KnownList, address?: string): ListingChange {
  return {
    zone,
    name: list.name,
    code: (list.codes ?? []).join(', '),
    meaning: list.meaning ?? '',
    ...(list.delist_url ? { delist_url: list.delist_url } : {}),
    ...(address ? { address } : {}),
  };
}

function byAddressAndZone(a: ListingChange, b: ListingChange): number {
  return (a.address ?? '').localeCompare(b.address ?? '') || a.zone.localeCompare(b.zone);
}

export function isChange(change: Change): boolean {
  return change.added.length > 0 || change.removed.length > 0;
}
