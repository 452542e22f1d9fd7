import { describe, expect, it } from 'vitest';
import type { ListResult } from '../../src/reputation/index.js';
import { addressTone, readList } from '../../src/share/verdict-model.js';
import { hasWarning } from '../../src/reputation/checks/score.js';
import { coverageOf } from '../../src/reputation/lists/coverage.js';

const base = { zone: 'list.example', name: 'A list', type: 'ip', severity: 'minor' } as const;
const listing = (severity: 'major' | 'minor' | 'info') => ({
  code: '127.0.0.2',
  meaning: 'a meaning',
  severity,
  weight: 5,
});

const pbl: ListResult = { ...base, status: 'listed', listings: [listing('info')] };
const blocking: ListResult = { ...base, status: 'listed', listings: [listing('minor')] };
const poorGrade: ListResult = {
  ...base,
  status: 'clean',
  grade: { label: 'poor reputation L4', points: -15, listed: false },
};
const goodGrade: ListResult = {
  ...base,
  status: 'clean',
  grade: { label: 'trust high', points: 5, listed: false },
};
const clean: ListResult = { ...base, status: 'clean' };

describe('one reading of each list', () => {
  it('reads a listing for information only as information, counted apart and no warning', () => {
    expect(readList(pbl)).toEqual({ tone: 'informational', status: 'status.informational' });
    expect(coverageOf([pbl, clean])).toMatchObject({ blocking: 0, informational: 1 });
    expect(hasWarning([pbl, clean])).toBe(false);
  });

  it('reads a grade that costs points as a poor reputation, counted and warned of', () => {
    expect(readList(poorGrade)).toEqual({
      tone: 'poor_reputation',
      status: 'status.poorReputation',
    });
    expect(coverageOf([poorGrade, clean])).toMatchObject({ blocking: 0, poor_reputation: 1 });
    expect(hasWarning([poorGrade])).toBe(true);
  });

  it('reads a grade that adds points as a good reputation, and a plain clean answer as not listed', () => {
    expect(readList(goodGrade).tone).toBe('good_reputation');
    expect(readList(clean)).toEqual({ tone: 'clean', status: 'status.clean' });
    expect(coverageOf([goodGrade, clean])).not.toHaveProperty('poor_reputation');
  });

  it('reads a blocking listing as listed, and warns of it', () => {
    expect(readList(blocking)).toEqual({ tone: 'listed', status: 'status.listed' });
    expect(hasWarning([blocking])).toBe(true);
  });

  it('reads a list on hold or not covering IPv6 by that, whatever its status', () => {
    expect(readList({ ...base, status: 'timeout', on_hold: true }).tone).toBe('on_hold');
    expect(readList({ ...base, status: 'disabled', not_covered: true }).tone).toBe('not_covered');
  });

  it('colours an address red only when a list blocks it', () => {
    const on = (severity: 'minor' | 'info') => ({
      zone: 'z',
      name: 'n',
      severity,
      detail: '',
      codes: [],
    });
    expect(addressTone({ listings: [] })).toBeUndefined();
    expect(addressTone({ listings: [on('info')] })).toBe('informational');
    expect(addressTone({ listings: [on('info'), on('minor')] })).toBe('listed');
  });
});
