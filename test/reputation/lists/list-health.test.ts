import { describe, expect, it } from 'vitest';
import {
  endHold,
  type HoldTiming,
  type ListRecord,
  probeMissed,
  recordLookup,
  stateOf,
} from '../../../src/reputation/lists/list-health.js';

/**
 * A list's record between self-tests: when real look-ups put it on hold, how long its holds wait
 * between probes, and what ends a hold.
 */

const timing: HoldTiming = { firstProbeMs: 2000, maxProbeMs: 30_000 };
const start = Date.parse('2026-01-01T00:00:00Z');

function provenRecord(): ListRecord {
  return { provenAt: start, positive: true, timeoutsInARow: 0 };
}

/** Three look-ups in a row without an answer at `at`: the list goes on hold. */
function silence(record: ListRecord, at: number): void {
  for (let i = 0; i < 3; i++) recordLookup(record, true, at, 3, timing);
}

describe('holds', () => {
  it('put a list on hold after three look-ups in a row without an answer, an answer between resetting the count', () => {
    const record = provenRecord();
    recordLookup(record, true, start, 3, timing);
    recordLookup(record, false, start, 3, timing);
    recordLookup(record, true, start, 3, timing);
    recordLookup(record, true, start, 3, timing);
    expect(record.hold).toBeUndefined();
    expect(recordLookup(record, true, start, 3, timing)).toBe(true);
    expect(record.hold).toMatchObject({ since: start, probeEveryMs: 2000, probeAt: start + 2000 });
    expect(stateOf(record, { now: start, ttlMs: 60_000 })).toBe('on_hold');
  });

  it('wait the same time between the probes of one hold that get no answer', () => {
    const record = provenRecord();
    silence(record, start);
    probeMissed(record, start + 2000);
    probeMissed(record, start + 4000);
    expect(record.hold).toMatchObject({ probeEveryMs: 2000, probeAt: start + 6000 });
  });

  it('back off when they repeat: 2 s, 4 s, 8 s ... up to the longest wait', () => {
    const record = provenRecord();
    const waits: number[] = [];
    let at = start;
    for (let hold = 0; hold < 7; hold++) {
      silence(record, at);
      waits.push(record.hold!.probeEveryMs);
      at += record.hold!.probeEveryMs;
      endHold(record, at);
      at += 1000;
    }
    expect(waits).toEqual([2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
    expect(record.timeoutsInARow).toBe(0);
  });

  it('start again from the first wait once a list has answered for longer than the longest wait', () => {
    const record = provenRecord();
    silence(record, start);
    endHold(record, start + 2000);
    silence(record, start + 3000);
    expect(record.hold?.probeEveryMs).toBe(4000);
    endHold(record, start + 7000);
    silence(record, start + 7000 + timing.maxProbeMs + 1);
    expect(record.hold?.probeEveryMs).toBe(2000);
  });

  it('say how often the list is probed and what brings it back', () => {
    const record = provenRecord();
    silence(record, start);
    expect(record.hold?.reason).toBe(
      'on hold since 2026-01-01T00:00:00.000Z: 3 look-ups in a row got no answer; not asked ' +
        'until it answers a real look-up again (probed every 2 s)',
    );
  });
});
