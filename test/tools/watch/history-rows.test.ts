import { describe, expect, it } from 'vitest';
import {
  historyCsv,
  listingRows,
  type RowMaker,
  type StoredEntry,
} from '../../../src/tools/watch/history-rows.js';
import { parseCsv } from '../../support/csv.js';

/** src/tools/watch/history-rows.ts: rows per listing change, and the hook for other kinds. */

const entry: StoredEntry = {
  at: '2026-11-02T09:41:00.000Z',
  added: [
    { zone: 'b.example', name: 'B', code: '127.0.0.2', meaning: 'spam', address: '192.0.2.1' },
  ],
  removed: [{ zone: 'a.example', name: 'A', code: '127.0.0.4', meaning: 'old' }],
  verdict: 'fair',
  score: 70,
};

describe('historyCsv', () => {
  it('writes an entry’s additions, then its removals, with its time, verdict and score', () => {
    expect(parseCsv(historyCsv([entry])).slice(1)).toEqual([
      [entry.at, 'listed', 'b.example', 'B', '127.0.0.2', 'spam', 'fair', '70', '192.0.2.1'],
      [entry.at, 'delisted', 'a.example', 'A', '127.0.0.4', 'old', 'fair', '70', ''],
    ]);
  });

  it('leaves fields of other kinds of change (a mail watch’s changes) to their own row makers', () => {
    const mail = { ...entry, changes: [{ kind: 'dmarc', from: 'none', to: 'reject' }] };
    expect(historyCsv([mail])).toBe(historyCsv([entry]));
    const changeRows: RowMaker = (stored) =>
      ((stored.changes ?? []) as { kind: string; to: string }[]).map((change) => [
        stored.at,
        change.kind,
        '',
        '',
        '',
        change.to,
        stored.verdict,
        stored.score,
        '',
      ]);
    const rows = parseCsv(historyCsv([mail], [listingRows, changeRows])).slice(1);
    expect(rows.map((row) => row[1])).toEqual(['listed', 'delisted', 'dmarc']);
  });
});
