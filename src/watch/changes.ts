import { type MailChange, type MailFacts, mergeMailFacts } from './mail/index.js';
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
  /** For a mail watch: what its checks showed of the mail setup (docs/watches.md, "Mail watches"). */
  mail?: MailFacts;
}

export interface Change {
  /** Lists that list the target (or a sender address) now and did not before. */
  added: ListingChange[];
  /** Lists that listed it before and answer now that they do not. */
  removed: ListingChange[];
  /** A mail watch's changes of its mail setup. */
  changes?: MailChange[];
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
  let mail: MailFacts | undefined;
  if (observation.mail) {
    // A mail fact is confirmed as a list is: the same count, under `mail:<fact>`.
    const confirm = (key: string, value: string) => heardInARow(step, `mail:${key}`, value);
    change.changes = [];
    mail = mergeMailFacts(
      previous?.mail,
      observation.mail,
      reporting ? confirm : undefined,
      change.changes,
    );
  }
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
    if (key.startsWith('mail:')) {
      if (observation.mail && !Object.hasOwn(observation.mail.facts, key.slice(5)))
        pending[key] = entry;
      continue;
    }
    const address = key.includes(' ') ? key.slice(0, key.indexOf(' ')) : undefined;
    const zone = address === undefined ? key : key.slice(address.length + 1);
    const heard = address === undefined ? observation.lists : observation.addresses?.[address];
    if (heard && !Object.hasOwn(heard, zone)) pending[key] = entry;
  }
  change.added.sort(byAddressAndZone);
  change.removed.sort(byAddressAndZone);
  const unconfirmed = Object.keys(pending).length > 0 ? { unconfirmed: pending } : {};
  return {
    known: {
      lists,
      ...(addresses ? { addresses } : {}),
      ...(mail ? { mail } : {}),
      ...unconfirmed,
    },
    change,
  };
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
    if (!heardInARow(step, key, now.status)) continue;
    known[zone] = now;
    if (now.status === 'listed') step.change.added.push(listingChange(zone, now, address));
    else if (was) step.change.removed.push(listingChange(zone, was, address));
  }
  return known;
}

/**
 * Whether `status`, heard under `key` and not the known one, is confirmed by this check: heard by
 * `confirmations` checks in a row. Until then its count waits in `pending`.
 */
function heardInARow(step: MergeStep, key: string, status: string): boolean {
  const earlier = step.heardBefore[key];
  const seen = earlier?.status === status ? earlier.seen + 1 : 1;
  if (seen >= step.confirmations) return true;
  step.pending[key] = { status, seen };
  return false;
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
  return change.added.length > 0 || change.removed.length > 0 || (change.changes?.length ?? 0) > 0;
}
