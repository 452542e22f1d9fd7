import type { ListState } from './list-health-schemas.js';
import type { SelfTestVerdict } from './self-test.js';

/**
 * What the service knows of one list between self-tests, and the state that follows from it:
 *
 * - `active`: its honesty is proven recently (its documented test entry answered as documented and
 *   a random name NXDOMAIN; for a list whose operator documents no test entry, its own random name
 *   NXDOMAIN while another list proves the resolver honest). Only then is NXDOMAIN "not listed".
 * - `on_hold`: it stopped answering (look-ups in a row timed out, or its self-test got no answer).
 *   Checks report it as not answered without asking it. Only an answer to a real look-up (a
 *   probe asking it about a target as a check does) brings it back: its test entries may still
 *   answer from a resolver's cache, or pass a rate limit that real look-ups do not (hold-probe.ts).
 *   A hold that follows soon after the last one waits twice as long between probes.
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
  hold?: Hold;
  /** How long the last hold waited between probes, and when it ended: a repeat backs off. */
  lastHold?: { endedAt: number; probeEveryMs: number };
  /** Real look-ups in a row that got no answer. */
  timeoutsInARow: number;
  lastTest?: { at: number; result: SelfTestVerdict['state'] };
}

export interface Hold {
  since: number;
  reason: string;
  /** How long it waits between probes: doubled for each hold that repeats an earlier one. */
  probeEveryMs: number;
  /** When it is next probed. */
  probeAt: number;
}

/** How holds are timed: the first waits `firstProbeMs` between probes, repeats up to `maxProbeMs`. */
export interface HoldTiming {
  firstProbeMs: number;
  /** The longest wait, and how long after a hold ends a new one still counts as a repeat. */
  maxProbeMs: number;
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

/**
 * A self-test verdict applied to a list's record at `at`. A pass proves the list honest but does
 * not end a hold: its test entries may answer while real look-ups do not (`endHold`).
 */
export function applyVerdict(
  record: ListRecord,
  verdict: SelfTestVerdict,
  at: number,
  timing: HoldTiming,
): void {
  record.lastTest = { at, result: verdict.state };
  switch (verdict.state) {
    case 'passed':
      record.provenAt = at;
      record.positive = verdict.positive;
      delete record.failure;
      delete record.inconclusive;
      return;
    case 'failed':
      // A list that answers falsely loses its proof at once, not when the proof grows old.
      record.failure = verdict.reason;
      delete record.provenAt;
      return;
    case 'inconclusive':
      record.inconclusive = `its self-test got no usable answer (${verdict.reason})`;
      if (verdict.silent && !record.hold)
        startHold(record, at, 'its self-test got no answer', timing);
      return;
  }
}

/** A real look-up's outcome: after `holdAfter` timeouts in a row the list goes on hold. */
export function recordLookup(
  record: ListRecord,
  timedOut: boolean,
  at: number,
  holdAfter: number,
  timing: HoldTiming,
): boolean {
  if (!timedOut) {
    record.timeoutsInARow = 0;
    return false;
  }
  record.timeoutsInARow++;
  if (record.hold || record.timeoutsInARow < holdAfter) return false;
  startHold(record, at, `${record.timeoutsInARow} look-ups in a row got no answer`, timing);
  return true;
}

/**
 * Puts a list on hold. A hold that starts within `maxProbeMs` of the end of the last one repeats
 * it, and waits twice as long between probes (2 s, 4 s, 8 s ... up to `maxProbeMs`): a list that
 * answers a probe and then drops the checks' look-ups again costs checks ever less often.
 */
function startHold(record: ListRecord, at: number, why: string, timing: HoldTiming): void {
  const last = record.lastHold;
  const repeats = last !== undefined && at - last.endedAt <= timing.maxProbeMs;
  const probeEveryMs = repeats
    ? Math.min(2 * last.probeEveryMs, timing.maxProbeMs)
    : timing.firstProbeMs;
  record.hold = {
    since: at,
    reason:
      `on hold since ${iso(at)}: ${why}; not asked until it answers a real look-up again ` +
      `(probed every ${seconds(probeEveryMs)})`,
    probeEveryMs,
    probeAt: at + probeEveryMs,
  };
}

/** A probe's real look-up got an answer: the list is asked again. */
export function endHold(record: ListRecord, at: number): void {
  if (!record.hold) return;
  record.lastHold = { endedAt: at, probeEveryMs: record.hold.probeEveryMs };
  delete record.hold;
  record.timeoutsInARow = 0;
}

/** A probe's real look-up got no answer: the next one comes after the hold's wait. */
export function probeMissed(record: ListRecord, at: number): void {
  if (record.hold) record.hold.probeAt = at + record.hold.probeEveryMs;
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
