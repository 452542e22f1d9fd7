import type { Observation } from './observation.js';
import type { KnownList, KnownLists, ListingChange, Unconfirmed } from './schemas.js';

/**
 * Change detection (docs/watches.md, "Changes"): a change is a list whose status moves between
 * listed and not listed. A list that said nothing this time (a timeout, a hold, disabled, an
 * error) is not in the observation and keeps its last known status: silence is never a delisting
 * nor a listing. The first check records what it heard and reports nothing. A change is reported
 * once `confirmations` checks in a row heard it ("Confirmed changes"). Pure functions.
 */

/** What the watch knows of its target's lists, and for a domain of each sender address's. */
export interface Known {
  lists: KnownLists;
  addresses?: Record<string, KnownLists>;
  /**
   * Changes heard but not yet confirmed, by `zone` (or `address zone` for a sender address): the
   * status heard and how many checks in a row heard it. The known status stays until confirmed.
   */
  unconfirmed?: Unconfirmed;
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
  confirmations = 1,
): { known: Known; change: Change } {
  const change: Change = { added: [], removed: [] };
  const reporting = previous !== undefined;
  const pending: Unconfirmed = {};
  const heardBefore = previous?.unconfirmed ?? {};
  const step = { reporting, confirmations, change, pending, heardBefore };
  const lists = merge(step, previous?.lists, observation.lists);
  let addresses: Record<string, KnownLists> | undefined;
  if (observation.addresses) {
    addresses = {};
    for (const [address, heard] of Object.entries(observation.addresses)) {
      addresses[address] = merge(step, previous?.addresses?.[address], heard, address);
    }
  }
  // A list silent this time keeps its count: silence neither confirms nor contradicts. A sender
  // address no longer checked takes its unconfirmed changes with it.
  for (const [key, entry] of Object.entries(heardBefore)) {
    const address = key.includes(' ') ? key.slice(0, key.indexOf(' ')) : undefined;
    const zone = address === undefined ? key : key.slice(address.length + 1);
    const heard = address === undefined ? observation.lists : observation.addresses?.[address];
    if (heard && !Object.hasOwn(heard, zone)) pending[key] = entry;
  }
  change.added.sort(byAddressAndZone);
  change.removed.sort(byAddressAndZone);
  const unconfirmed = Object.keys(pending).length > 0 ? { unconfirmed: pending } : {};
  return { known: { lists, ...(addresses ? { addresses } : {}), ...unconfirmed }, change };
}

interface MergeStep {
  reporting: boolean;
  confirmations: number;
  change: Change;
  /** The unconfirmed changes after this check (written). */
  pending: Unconfirmed;
  /** The unconfirmed changes before it (read). */
  heardBefore: Unconfirmed;
}

function merge(
  step: MergeStep,
  before: KnownLists | undefined,
  heard: KnownLists,
  address?: string,
): KnownLists {
  const known: KnownLists = { ...before };
  for (const [zone, now] of Object.entries(heard)) {
    const was = before?.[zone];
    if (!step.reporting || was?.status === now.status || (!was && now.status !== 'listed')) {
      // Nothing to report: the first check, the known status heard again (a change heard
      // before and not confirmed is dropped: it flipped back), or a list first heard clean.
      known[zone] = now;
      continue;
    }
    const key = address === undefined ? zone : `${address} ${zone}`;
    const earlier = step.heardBefore[key];
    const seen = earlier?.status === now.status ? earlier.seen + 1 : 1;
    if (seen < step.confirmations) {
      step.pending[key] = { status: now.status, seen };
      continue;
    }
    known[zone] = now;
    if (now.status === 'listed') step.change.added.push(listingChange(zone, now, address));
    else if (was) step.change.removed.push(listingChange(zone, was, address));
  }
  return known;
}

/** Whether a change was heard and awaits its confirming checks. */
export function awaitsConfirmation(known: Known): boolean {
  return Object.keys(known.unconfirmed ?? {}).length > 0;
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
