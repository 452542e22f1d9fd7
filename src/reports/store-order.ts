import type { Period, ReceivedReport } from './store.js';

/**
 * The orders every report store answers in, written once so the backends agree to the row: text
 * compares by UTF-16 code unit (what SQLite's BINARY collation and PostgreSQL's "C" collation do
 * for the ASCII that addresses, domains and dates are), never by locale.
 */

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether a report's date (`YYYY-MM-DD`) lies in the period, both ends included. */
export function inPeriod(date: string, period: Period): boolean {
  return date >= period.from && date <= period.to;
}

/** Most messages first, ties by name: reporters, sources. */
export function ranked<T extends { messages: number }>(items: T[], name: (item: T) => string): T[] {
  return items.sort((a, b) => b.messages - a.messages || compareText(name(a), name(b)));
}

/** Received last first; within one moment, the later report first, then by kind, org and id. */
export function newestFirst(a: ReceivedReport, b: ReceivedReport): number {
  return (
    b.receivedAt - a.receivedAt ||
    b.end - a.end ||
    compareText(a.kind, b.kind) ||
    compareText(a.org, b.org) ||
    compareText(a.reportId, b.reportId)
  );
}
