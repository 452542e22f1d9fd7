import type { ListState } from './list-health-schemas.js';
import type { SelfTestVerdict } from './self-test.js';

/**
 * What the service knows of one list between self-tests, and the state that follows from it:
 *
 * - `active`: its honesty is proven recently (its documented test entry answered as documented and
 *   a random name NXDOMAIN; for a list whose operator documents no test entry, its own random name
 *   NXDOMAIN while another list proves the resolver honest). Only then is NXDOMAIN "not listed".
 * - `on_hold`: it stopped answering (look-ups in a row timed out, or its self-test got no answer).
 *   Checks report it as not answered without asking it; a background probe brings it back.
 * - `disabled`: it failed its self-test (it answers everything, misses its test entry, refuses the
 *   resolver), or it has not proven itself yet.
 */

export interface ListRecord {
  /** When its self-test last passed (ms since the epoch). */
  provenAt?: number;
  /** Whether its own documented test entry took part in that pass. */
  positive: boolean;
  /** Why its last conclusive self-test failed; cleared by a pass. */
  failure?: string;
  /** Why its last self-test was inconclusive. */
  inconclusive?: string;
  hold?: { since: number; reason: string };
  /** Real look-ups in a row that got no answer. */
  timeoutsInARow: number;
  lastTest?: { at: number; result: SelfTestVerdict['state'] };
}

export interface ProofWindow {
  now: number;
  /** How long a pass counts as recent. */
  ttlMs: number;
  /** When any list's documented test entry last answered as documented (the resolver's proof). */
  resolverProvenAt?: number;
}

export type ListStanding =
  | { state: 'active'; reason: string }
  | { state: 'on_hold'; reason: string }
  | { state: 'disabled'; reason: string };

const iso = (ms: number) => new Date(ms).toISOString();

const recentIn = (window: ProofWindow, at: number | undefined) =>
  at !== undefined && window.now - at <= window.ttlMs;

/** The state alone, without building a reason: what every check asks of every list. */
export function stateOf(record: ListRecord, window: ProofWindow): ListState {
  if (record.failure !== undefined) return 'disabled';
  if (record.hold) return 'on_hold';
  if (!recentIn(window, record.provenAt)) return 'disabled';
  return record.positive || recentIn(window, window.resolverProvenAt) ? 'active' : 'disabled';
}

export function standingOf(record: ListRecord, window: ProofWindow): ListStanding {
  if (record.failure !== undefined) return { state: 'disabled', reason: record.failure };
  if (record.hold) return { state: 'on_hold', reason: record.hold.reason };
  const recent = (at: number | undefined) => recentIn(window, at);
  if (recent(record.provenAt)) {
    if (record.positive) {
      return {
        state: 'active',
        reason: `answers honestly: its test entry answered as documented and a random name NXDOMAIN at ${iso(record.provenAt!)}`,
      };
    }
    if (recent(window.resolverProvenAt)) {
      return {
        state: 'active',
        reason:
          'its operator documents no test entry: trusted while a random name answers NXDOMAIN ' +
          `(${iso(record.provenAt!)}) and other lists prove the resolver honest (${iso(window.resolverProvenAt!)})`,
      };
    }
    return {
      state: 'disabled',
      reason:
        'not proven: its operator documents no test entry, and no other list has proven the resolver honest recently',
    };
  }
  if (record.provenAt !== undefined) {
    return {
      state: 'disabled',
      reason: `not proven since ${iso(record.provenAt)}: ${record.inconclusive ?? 'no self-test has passed since'}`,
    };
  }
  return {
    state: 'disabled',
    reason: `not proven yet: ${record.inconclusive ?? 'no self-test has passed yet'}`,
  };
}

/** A self-test verdict applied to a list's record at `at`; true when the list was caught lying. */
export function applyVerdict(record: ListRecord, verdict: SelfTestVerdict, at: number): void {
  record.lastTest = { at, result: verdict.state };
  switch (verdict.state) {
    case 'passed':
      record.provenAt = at;
      record.positive = verdict.positive;
      delete record.failure;
      delete record.inconclusive;
      delete record.hold;
      record.timeoutsInARow = 0;
      return;
    case 'failed':
      // A list that answers falsely loses its proof at once, not when the proof grows old.
      record.failure = verdict.reason;
      delete record.provenAt;
      delete record.hold;
      return;
    case 'inconclusive':
      record.inconclusive = `its self-test got no usable answer (${verdict.reason})`;
      if (verdict.silent && !record.hold) {
        record.hold = {
          since: at,
          reason: `on hold since ${iso(at)}: its self-test got no answer`,
        };
      }
      return;
  }
}

/** A real look-up's outcome: after `holdAfter` timeouts in a row the list goes on hold. */
export function recordLookup(
  record: ListRecord,
  timedOut: boolean,
  at: number,
  holdAfter: number,
): boolean {
  if (!timedOut) {
    record.timeoutsInARow = 0;
    return false;
  }
  record.timeoutsInARow++;
  if (record.hold || record.timeoutsInARow < holdAfter) return false;
  record.hold = {
    since: at,
    reason: `on hold since ${iso(at)}: ${record.timeoutsInARow} look-ups in a row got no answer; not asked until it answers again`,
  };
  return true;
}
