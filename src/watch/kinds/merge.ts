import {
  type Fact,
  type FactKey,
  factId,
  type FactKind,
  keyOf,
  type ListFact,
  type Unconfirmed,
} from './facts.js';
import type { ListingChange, MailChange, WatchStatus } from './status.js';

/**
 * Change detection, one merge for every kind (docs/watch-engine.md, "Facts and merge"): a change
 * is a fact whose value moves, heard by `confirmations` checks in a row ("Confirmed changes"). A
 * fact the check did not hear (a list that timed out, a probe that did not answer) keeps what was
 * known and its count: silence is never a change. The first check records what it heard and
 * reports nothing. A fact first heard after it is news only when its kind says so (a listing:
 * news however it came; a list first heard clean, a mail fact first heard: recorded without a
 * word). Pure functions.
 */

/** What one check heard, read by its kind (src/watch/kinds/): its facts and its status in brief. */
export interface Observation {
  /** Every fact the check heard. One it could not hear is not here. */
  facts: Fact[];
  status: WatchStatus;
  /**
   * Known facts this check shows are gone, not silent (a sender address the domain no longer
   * has, a certificate of an MX host it no longer has): forgotten with their unconfirmed changes,
   * without a change.
   */
  gone?: (key: FactKey) => boolean;
  /**
   * Facts judged over the facts known after the merge (a mail watch's providers' verdicts, over
   * the rules known): they move only with a confirmed fact, so a move is reported at once.
   */
  derive?: (known: readonly Fact[]) => Fact[];
  /** Its changes are reported as `changes` (a mail watch's setup) beside `added` and `removed`. */
  reportsChanges?: boolean;
}

/** What the watch knows of its target: its facts, and the changes heard but not yet confirmed. */
export interface Known {
  facts: Fact[];
  unconfirmed?: Unconfirmed[];
}

/** What a check reported, as events and history entries carry it. */
export interface Change {
  /** Lists that list the target (or a sender address) now and did not before. */
  added: ListingChange[];
  /** Lists that listed it before and answer now that they do not. */
  removed: ListingChange[];
  /** A mail watch's changes of its mail setup. */
  changes?: MailChange[];
}

export const noChange: Change = { added: [], removed: [] };

/** Whether a fact first heard after the first check is news, by what it is. */
const newsWhenFirstHeard: Record<FactKind, (fact: Fact) => boolean> = {
  list: (fact) => fact.value === 'listed',
  requirement: () => false,
  verdict: () => false,
  certificate: () => false,
  mta_sts: () => false,
  dkim: () => false,
};

/** A fact that moved: what was known, and what is known now. */
interface Move {
  was: Fact | undefined;
  now: Fact;
}

/**
 * What the watch knows after an observation, and what changed. `previous` is undefined for the
 * first check.
 */
export function recordObservation(
  previous: Known | undefined,
  observation: Observation,
  confirmations = 1,
): { known: Known; change: Change } {
  const reporting = previous !== undefined;
  const gone = observation.gone ?? (() => false);
  const known = new Map<string, Fact>();
  for (const fact of previous?.facts ?? []) if (!gone(fact)) known.set(factId(fact), fact);
  const heardBefore = new Map((previous?.unconfirmed ?? []).map((entry) => [factId(entry), entry]));
  const pending = new Map<string, Unconfirmed>();
  const heard = new Set<string>();
  const moves: Move[] = [];
  for (const now of observation.facts) {
    const id = factId(now);
    heard.add(id);
    const was = known.get(id);
    if (!reporting || was?.value === now.value || (!was && !newsWhenFirstHeard[now.what](now))) {
      // Nothing to report: the first check, the known value heard again (a change heard before
      // and not confirmed is dropped: it flipped back), or a fact first heard that is no news.
      known.set(id, now);
      continue;
    }
    const earlier = heardBefore.get(id);
    const seen = earlier?.value === now.value ? earlier.seen + 1 : 1;
    if (seen < confirmations) {
      pending.set(id, { ...keyOf(now), value: now.value, seen });
      continue;
    }
    known.set(id, now);
    moves.push({ was, now });
  }
  for (const now of observation.derive?.([...known.values()]) ?? []) {
    const id = factId(now);
    const was = known.get(id);
    known.set(id, now);
    if (reporting && was && was.value !== now.value) moves.push({ was, now });
  }
  // A fact silent this time keeps its count: silence neither confirms nor contradicts. One that
  // is gone takes its count with it.
  for (const [id, entry] of heardBefore) {
    if (!heard.has(id) && !gone(entry)) pending.set(id, entry);
  }
  return {
    known: {
      facts: [...known.values()],
      ...(pending.size > 0 ? { unconfirmed: [...pending.values()] } : {}),
    },
    change: changeOf(moves, observation.reportsChanges === true),
  };
}

/** The moves as events and history entries say them: listings added and removed, or changes. */
function changeOf(moves: readonly Move[], reportsChanges: boolean): Change {
  const change: Change = { added: [], removed: [] };
  const changes: MailChange[] = [];
  for (const { was, now } of moves) {
    if (now.what === 'list') {
      if (now.value === 'listed') change.added.push(listingChange(now));
      else if (was?.what === 'list') change.removed.push(listingChange(was));
    } else if (was) {
      const { what, subject, detail } = now;
      changes.push({ what, subject, from: was.value, to: now.value, detail });
    }
  }
  change.added.sort(byAddressAndZone);
  change.removed.sort(byAddressAndZone);
  changes.sort((a, b) => a.what.localeCompare(b.what) || a.subject.localeCompare(b.subject));
  return reportsChanges ? { ...change, changes } : change;
}

function listingChange(fact: ListFact): ListingChange {
  const { detail } = fact;
  return {
    zone: fact.subject,
    name: detail.name,
    code: (detail.codes ?? []).join(', '),
    meaning: detail.meaning ?? '',
    ...(detail.delist_url ? { delist_url: detail.delist_url } : {}),
    ...(fact.address ? { address: fact.address } : {}),
  };
}

function byAddressAndZone(a: ListingChange, b: ListingChange): number {
  return (a.address ?? '').localeCompare(b.address ?? '') || a.zone.localeCompare(b.zone);
}

/** Whether a change was heard and awaits its confirming checks. */
export function awaitsConfirmation(known: Known): boolean {
  return (known.unconfirmed?.length ?? 0) > 0;
}

export function isChange(change: Change): boolean {
  return change.added.length > 0 || change.removed.length > 0 || (change.changes?.length ?? 0) > 0;
}
