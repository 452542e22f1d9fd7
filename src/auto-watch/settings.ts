import type { Inbox, Period, SourceTotals } from '../reports/index.js';

/**
 * An inbox's `auto_watch` settings as the reports tool keeps them on the inbox (PATCH
 * /reports/v1/{id} judges and writes them), and what they select from its sources: the sources
 * that passed DMARC with at least `min_messages` in the last 30 days, most messages first within
 * the cap, and those that failed it as much.
 */

export interface AutoWatchSettings {
  webhook_url: string | null;
  webhook_format: string | null;
  email: string | null;
  min_messages: number;
}

/** The settings the inbox keeps; null when auto_watch is off (or holds nothing readable). */
export function settingsOf(inbox: Pick<Inbox, 'autoWatch'>): AutoWatchSettings | null {
  const value = inbox.autoWatch as Partial<AutoWatchSettings> | null | undefined;
  if (!value || typeof value !== 'object' || typeof value.min_messages !== 'number') return null;
  const text = (field: unknown) => (typeof field === 'string' ? field : null);
  return {
    webhook_url: text(value.webhook_url),
    webhook_format: text(value.webhook_format),
    email: text(value.email),
    min_messages: value.min_messages,
  };
}

/** The window a source qualifies in: the last 30 days, today (UTC) included. */
export const windowDays = 30;

export function lastDays(now: number, days = windowDays): Period {
  const day = 86_400_000;
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: iso(now - (days - 1) * day), to: iso(now) };
}

/**
 * The sources to watch: passed DMARC with at least `min` messages, and an address an IP watch
 * may take (`watchable`: public, in its canonical form), most messages first (the store's order),
 * at most `cap` of them. The sources that failed DMARC with at least `min` messages.
 */
export function selectSources(
  sources: readonly SourceTotals[],
  min: number,
  cap: number,
  watchable: (ip: string) => boolean,
): { watch: SourceTotals[]; failing: SourceTotals[] } {
  return {
    watch: sources.filter((source) => source.pass >= min && watchable(source.ip)).slice(0, cap),
    failing: sources.filter((source) => source.fail >= min),
  };
}
