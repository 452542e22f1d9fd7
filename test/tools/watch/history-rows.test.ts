import { describe, expect, it } from 'vitest';
import {
  exportFileName,
  historyColumns,
  historyCsv,
  type HistoryOf,
  listingRows,
  type RowMaker,
  spreadsheetDuration,
  spreadsheetTime,
  type StoredEntry,
} from '../../../src/tools/watch/history-rows.js';
import { maxHistory } from '../../../src/watch/index.js';
import { parseCsv } from '../../support/csv.js';

/**
 * src/tools/watch/history-rows.ts: rows per listing change, the target, the time as a spreadsheet
 * reads a date, how long each delisted listing lasted, and the hook for other kinds.
 */

const target = '192.0.2.1';
const created = '2026-10-30T12:00:00.000Z';
const entry: StoredEntry = {
  at: '2026-11-02T09:41:00.000Z',
  added: [
    { zone: 'b.example', name: 'B', code: '127.0.0.2', meaning: 'spam', address: '192.0.2.1' },
  ],
  removed: [{ zone: 'a.example', name: 'A', code: '127.0.0.4', meaning: 'old' }],
  verdict: 'fair',
  score: 70,
};
const watchOf = (history: StoredEntry[]): HistoryOf => ({ target, history, created_at: created });

describe('historyCsv', () => {
  it('writes an entry’s additions, then its removals, with its time, verdict, score, the target and the time as a date', () => {
    const [columns, ...rows] = parseCsv(historyCsv(watchOf([entry])));
    expect(columns).toEqual([...historyColumns]);
    expect(rows).toEqual([
      [
        entry.at,
        'listed',
        'b.example',
        'B',
        '127.0.0.2',
        'spam',
        'fair',
        '70',
        '192.0.2.1',
        target,
        '2026-11-02 09:41:00',
        '',
        '',
      ],
      // Listed since the first check (no entry added it, and the history is whole).
      [
        entry.at,
        'delisted',
        'a.example',
        'A',
        '127.0.0.4',
        'old',
        'fair',
        '70',
        '',
        target,
        '2026-11-02 09:41:00',
        '69:41:00',
        String(69 * 3600 + 41 * 60),
      ],
    ]);
  });

  it('gives each delisting the length of the listing it ended, from the entry that added it', () => {
    const listedAgain: StoredEntry = {
      at: '2026-11-05T10:00:00.000Z',
      added: [entry.removed[0]!],
      removed: [],
      verdict: 'poor',
      score: 40,
    };
    const delistedAgain: StoredEntry = {
      at: '2026-11-06T11:30:15.000Z',
      added: [],
      removed: [entry.removed[0]!],
      verdict: 'good',
      score: 100,
    };
    const rows = parseCsv(historyCsv(watchOf([delistedAgain, listedAgain, entry]))).slice(1);
    const delisted = rows.filter((row) => row[1] === 'delisted');
    expect(delisted.map((row) => [row[0], row[11], row[12]])).toEqual([
      [delistedAgain.at, '25:30:15', String(25 * 3600 + 30 * 60 + 15)],
      [entry.at, '69:41:00', String(69 * 3600 + 41 * 60)],
    ]);
  });

  it('leaves the length empty where the history has dropped the listing’s start', () => {
    const filler: StoredEntry[] = Array.from({ length: maxHistory - 1 }, (_, index) => ({
      at: new Date(Date.parse(entry.at) + (index + 1) * 60_000).toISOString(),
      added: [],
      removed: [],
      changes: [],
      verdict: 'fair',
      score: 70,
    }));
    const rows = parseCsv(historyCsv(watchOf([...filler.reverse(), entry]))).slice(1);
    const delisted = rows.find((row) => row[1] === 'delisted')!;
    expect(delisted.slice(11)).toEqual(['', '']);
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
    const tail = [target, '2026-11-02 09:41:00', '', ''];
    expect(parseCsv(historyCsv(watchOf([mail]))).slice(1)).toEqual([
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
        ...tail,
      ],
      [entry.at, 'changed', 'dkim', 's1', 'found → none', '', 'fair', '70', '', ...tail],
    ]);
  });

  it('takes the row makers it is given, in their order', () => {
    const marker: RowMaker = (stored) => [
      [stored.at, 'marker', '', '', '', '', stored.verdict, stored.score, '', '', '', '', ''],
    ];
    const rows = parseCsv(historyCsv(watchOf([entry]), [marker, listingRows])).slice(1);
    expect(rows.map((row) => row[1])).toEqual(['marker', 'listed', 'delisted']);
  });
});

describe('the spreadsheet forms', () => {
  it.each([
    ['2026-11-02T09:41:00.000Z', '2026-11-02 09:41:00'],
    ['2026-01-31T23:59:59.999Z', '2026-01-31 23:59:59'],
  ])('writes %s as %s', (iso, shown) => {
    expect(spreadsheetTime(iso)).toBe(shown);
  });

  it.each([
    [0, '0:00:00'],
    [59_999, '0:00:59'],
    [3_600_000, '1:00:00'],
    [(3 * 86_400 + 4 * 3600 + 5 * 60 + 6) * 1000, '76:05:06'],
  ])('writes a duration of %i ms as %s, hours past a day kept', (ms, shown) => {
    expect(spreadsheetDuration(ms)).toBe(shown);
  });

  it.each([
    ['192.0.2.7', '192.0.2.7-2026-11-02.csv'],
    ['2001:db8::1', '2001_db8__1-2026-11-02.csv'],
    ['mail.example.com', 'mail.example.com-2026-11-02.csv'],
  ])('names the file of %s %s', (name, file) => {
    expect(exportFileName(name, '2026-11-02T09:41:00.000Z', 'csv')).toBe(file);
  });
});
