import type { ParsedReport } from './read/index.js';
import type { Inbox } from './store.js';

/**
 * How an inbox and a report go into a table's row and come back, the same on every SQL store:
 * `auto_watch` as JSON text (NULL when off), `verified` as SQLite's 0 or 1 or PostgreSQL's
 * boolean, a report's records counted as `received` lists them.
 */

export interface InboxRow extends Omit<Inbox, 'verified' | 'autoWatch'> {
  verified: boolean | number;
  autoWatch: string | null;
}

export function autoWatchText(autoWatch: unknown): string | null {
  return autoWatch === null || autoWatch === undefined ? null : JSON.stringify(autoWatch);
}

export function inboxOf(row: InboxRow | undefined): Inbox | undefined {
  if (!row) return undefined;
  return {
    ...row,
    verified: row.verified === true || row.verified === 1,
    autoWatch: row.autoWatch === null ? null : (JSON.parse(row.autoWatch) as unknown),
  };
}

/** DMARC: records; TLS: policies. */
export function recordsOf(report: ParsedReport): number {
  return report.kind === 'dmarc' ? report.rows.length : report.policies.length;
}
