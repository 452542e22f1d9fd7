import { type CsvCell, csvDocument } from '../../lib/index.js';
import {
  type HistoryEntry,
  type ListingChange,
  lastedMs,
  listingStart,
  maxHistory,
} from '../../watch/index.js';

/**
 * A watch's history as CSV rows (docs/watches.md, "History export"): one row per listing that
 * came or went, newest first as the history keeps them, its entry's time, verdict and score
 * repeated on each, then the target, the time as a spreadsheet reads a date, and on a delisting's
 * row how long the listing lasted. RFC 4180 and the formula guard are src/lib/csv.ts's.
 */

/**
 * The columns, in order; `address` is the sender address of a domain watch's listing, else
 * empty. **Decision**: the columns added later (`target` onwards) come after the first nine, so a
 * reader of the earlier file finds each of those where it was.
 */
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
  'target',
  'time_utc',
  'listed_for',
  'listed_for_s',
] as const;

/**
 * An entry as it is stored: the listing changes the schema names, and whatever other fields a
 * kind of watch adds (a mail watch's `changes` of its mail setup), which the listing rows leave
 * alone.
 */
export type StoredEntry = HistoryEntry & Record<string, unknown>;

/** The watch an export is of: what every row repeats, and where its listings began. */
export interface HistoryOf {
  target: string;
  /** Newest first, as the watch keeps it. */
  history: readonly StoredEntry[];
  /** The watch's first check: the start of a listing no entry added. */
  created_at: string;
}

/** What turns one entry into rows: one maker per kind of change an entry can carry. */
export type RowMaker = (entry: StoredEntry, watch: HistoryOf) => CsvCell[][];

/**
 * `2026-11-02 09:41:00`: the form spreadsheets (LibreOffice, Excel, Google Sheets) read as a date
 * and time when they open a CSV, where ISO 8601's `T` and `Z` leave a text. UTC, as `time`.
 */
export function spreadsheetTime(iso: string): string {
  return iso.slice(0, 19).replace('T', ' ');
}

/** A duration as `[h]:mm:ss` (hours past 24 kept): spreadsheets read it as a duration. */
export function spreadsheetDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(seconds / 3600)}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
}

/** The columns every row ends with: the target, the time as a date. */
function tail(entry: StoredEntry, watch: HistoryOf, lasted?: number): CsvCell[] {
  return [
    watch.target,
    spreadsheetTime(entry.at),
    ...(lasted === undefined ? ['', ''] : [spreadsheetDuration(lasted), Math.floor(lasted / 1000)]),
  ];
}

function listingRow(
  entry: StoredEntry,
  watch: HistoryOf,
  event: 'listed' | 'delisted',
  change: ListingChange,
): CsvCell[] {
  let lasted: number | undefined;
  if (event === 'delisted') {
    // The first check is the start of a listing no entry added only while no entry was dropped.
    const firstCheck = watch.history.length < maxHistory ? watch.created_at : undefined;
    const start = listingStart(watch.history, change, entry.at, firstCheck);
    if (start !== undefined) lasted = lastedMs(start, entry.at);
  }
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
    ...tail(entry, watch, lasted),
  ];
}

/**
 * The listings an entry added (`listed`), then those it removed (`delisted`, with how long the
 * listing lasted when the history tells).
 */
export const listingRows: RowMaker = (entry, watch) => [
  ...entry.added.map((change) => listingRow(entry, watch, 'listed', change)),
  ...entry.removed.map((change) => listingRow(entry, watch, 'delisted', change)),
];

/**
 * A mail watch's changes of its mail setup, in the same columns: `event` is `changed`, `zone` the
 * fact that changed (`requirement`, `verdict`, `certificate`, `dkim`, `mta_sts`), `list` its
 * subject (the rule, the provider, the MX host, the selector), `code` the move (`testing → enforce`)
 * and `meaning` what the check says of it now.
 */
export const mailChangeRows: RowMaker = (entry, watch) =>
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
    ...tail(entry, watch),
  ]);

/** The row makers, in the order their rows follow each other within an entry. */
export const rowMakers: readonly RowMaker[] = [listingRows, mailChangeRows];

/** The whole export: the header row, then every entry's rows. */
export function historyCsv(watch: HistoryOf, makers: readonly RowMaker[] = rowMakers): string {
  return csvDocument(
    historyColumns,
    watch.history.flatMap((entry) => makers.flatMap((make) => make(entry, watch))),
  );
}

/**
 * The export's file name (RFC 6266 §4.3: a name, no path): the target and the date of the
 * watch's last check, `192.0.2.7-2026-11-02.csv`. A character a file system may refuse (an IPv6
 * address's `:`) is `_`; a host name needs nothing else.
 */
export function exportFileName(target: string, at: string, extension: 'csv' | 'json'): string {
  return `${target.replace(/[^A-Za-z0-9.-]/g, '_')}-${at.slice(0, 10)}.${extension}`;
}
