import { type CsvCell, csvDocument } from '../../lib/index.js';
import type { HistoryEntry, ListingChange } from '../../watch/index.js';

/**
 * A watch's history as CSV rows (docs/watches.md, "History export"): one row per listing that
 * came or went, newest first as the history keeps them, its entry's time, verdict and score
 * repeated on each. RFC 4180 and the formula guard are src/lib/csv.ts's.
 */

/** The columns, in order; `address` is the sender address of a domain watch's listing, else empty. */
export const historyColumns = [
  'time',
  'event',
  'zone',
  'list',
  'code',
  'meaning',
  'verdict',
  'score',
  'address',
] as const;

/**
 * An entry as it is stored: the listing changes the schema names, and whatever other fields a
 * kind of watch adds (a mail watch's `changes` of its mail setup), which the listing rows leave
 * alone.
 */
export type StoredEntry = HistoryEntry & Record<string, unknown>;

/** What turns one entry into rows: one maker per kind of change an entry can carry. */
export type RowMaker = (entry: StoredEntry) => CsvCell[][];

function listingRow(
  entry: StoredEntry,
  event: 'listed' | 'delisted',
  change: ListingChange,
): CsvCell[] {
  return [
    entry.at,
    event,
    change.zone,
    change.name,
    change.code,
    change.meaning,
    entry.verdict,
    entry.score,
    change.address ?? '',
  ];
}

/** The listings an entry added (`listed`), then those it removed (`delisted`). */
export const listingRows: RowMaker = (entry) => [
  ...entry.added.map((change) => listingRow(entry, 'listed', change)),
  ...entry.removed.map((change) => listingRow(entry, 'delisted', change)),
];

/**
 * A mail watch's changes of its mail setup, in the same columns: `event` is `changed`, `zone` the
 * fact that changed (`requirement`, `verdict`, `certificate`, `dkim`, `mta_sts`), `list` its
 * subject (the rule, the provider, the MX host, the selector), `code` the move (`testing → enforce`)
 * and `meaning` what the check says of it now.
 */
export const mailChangeRows: RowMaker = (entry) =>
  (entry.changes ?? []).map((change) => [
    entry.at,
    'changed',
    change.what,
    change.subject,
    `${change.from} → ${change.to}`,
    change.detail ?? '',
    entry.verdict,
    entry.score,
    '',
  ]);

/** The row makers, in the order their rows follow each other within an entry. */
export const rowMakers: readonly RowMaker[] = [listingRows, mailChangeRows];

/** The whole export: the header row, then every entry's rows. */
export function historyCsv(
  history: readonly StoredEntry[],
  makers: readonly RowMaker[] = rowMakers,
): string {
  return csvDocument(
    historyColumns,
    history.flatMap((entry) => makers.flatMap((make) => make(entry))),
  );
}
