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

  it('writes a mail watch’s changes as rows of their own: the fact, its subject, the move and the detail', () => {
    const mail: StoredEntry = {
      ...entry,
      added: [],
      removed: [],
      changes: [
        {
          what: 'mta_sts',
          subject: 'example.com',
          from: 'testing',
          to: 'enforce',
          detail: 'mode enforce',
        },
        { what: 'dkim', subject: 's1', from: 'found', to: 'none', detail: null },
      ],
    };
    expect(parseCsv(historyCsv([mail])).slice(1)).toEqual([
      [
        entry.at,
        'changed',
        'mta_sts',
        'example.com',
        'testing → enforce',
        'mode enforce',
        'fair',
        '70',
        '',
      ],
      [entry.at, 'changed', 'dkim', 's1', 'found → none', '', 'fair', '70', ''],
    ]);
  });

  it('takes the row makers it is given, in their order', () => {
    const marker: RowMaker = (stored) => [
      [stored.at, 'marker', '', '', '', '', stored.verdict, stored.score, ''],
    ];
    const rows = parseCsv(historyCsv([entry], [marker, listingRows])).slice(1);
    expect(rows.map((row) => row[1])).toEqual(['marker', 'listed', 'delisted']);
  });
});
