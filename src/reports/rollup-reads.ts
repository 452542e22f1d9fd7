import type { DmarcTotals, SourceTotals, TlsTotals } from './store.js';
import type { SourceNames } from './rollup-rows.js';
import type { ReportRollup } from './rollups.js';
import { compareText, ranked } from './store-order.js';

/**
 * The summary's shapes built from the rows the SQL stores read out of their rollups: one fold per
 * answer, so SQLite and PostgreSQL answer alike (and as the memory store does) however their SQL
 * differs. The rows are few: a period's days times its reporters, its top sources' names.
 */

/** One reporter's DMARC sums on one day. */
export type DmarcDayRow = { date: string; org: string; reports: number } & NonNullable<
  ReportRollup['dmarc']
>;

export function dmarcTotalsOf(rows: readonly DmarcDayRow[]): DmarcTotals {
  const totals: DmarcTotals = {
    reports: 0,
    messages: 0,
    pass: 0,
    fail: 0,
    spfAligned: 0,
    dkimAligned: 0,
    dispositions: { none: 0, quarantine: 0, reject: 0 },
    reporters: [],
    daily: [],
  };
  const reporters = new Map<string, DmarcTotals['reporters'][number]>();
  const daily = new Map<string, DmarcTotals['daily'][number]>();
  for (const row of rows) {
    totals.reports += row.reports;
    totals.messages += row.messages;
    totals.pass += row.pass;
    totals.fail += row.messages - row.pass;
    totals.spfAligned += row.spfAligned;
    totals.dkimAligned += row.dkimAligned;
    totals.dispositions.none += row.none;
    totals.dispositions.quarantine += row.quarantine;
    totals.dispositions.reject += row.reject;
    const reporter = reporters.get(row.org) ?? { org: row.org, reports: 0, messages: 0, pass: 0 };
    reporter.reports += row.reports;
    reporter.messages += row.messages;
    reporter.pass += row.pass;
    reporters.set(row.org, reporter);
    const day = daily.get(row.date) ?? { date: row.date, pass: 0, fail: 0 };
    day.pass += row.pass;
    day.fail += row.messages - row.pass;
    daily.set(row.date, day);
  }
  totals.reporters = ranked([...reporters.values()], (reporter) => reporter.org);
  totals.daily = [...daily.values()].sort((a, b) => compareText(a.date, b.date));
  return totals;
}

/** A source's sums over the period, as the store's ranking query gives them. */
export interface SourceRow {
  ip: string;
  messages: number;
  pass: number;
  spfAligned: number;
  dkimAligned: number;
}

/**
 * The sources in the order given, each with its header From domains and reporters summed from
 * the names of its rows (one row per bucket it was seen in).
 */
export function sourcesOf(
  sources: readonly SourceRow[],
  names: readonly { ip: string; names: SourceNames }[],
): SourceTotals[] {
  const byIp = new Map<string, Map<string, [records: number, messages: number]>>();
  for (const row of names) {
    let summed = byIp.get(row.ip);
    if (!summed) byIp.set(row.ip, (summed = new Map()));
    for (const [name, [records, messages]] of Object.entries(row.names)) {
      const was = summed.get(name);
      if (was) {
        was[0] += records;
        was[1] += messages;
      } else {
        summed.set(name, [records, messages]);
      }
    }
  }
  const listed = (of: Map<string, [number, number]> | undefined, kind: 'h' | 'r') =>
    ranked(
      [...(of ?? [])]
        .filter(([key, [records]]) => key.startsWith(`${kind}:`) && records > 0)
        .map(([key, [, messages]]) => ({ name: key.slice(2), messages })),
      (entry) => entry.name,
    ).map((entry) => entry.name);
  return sources.map((source) => ({
    ip: source.ip,
    messages: source.messages,
    pass: source.pass,
    fail: source.messages - source.pass,
    spfAligned: source.spfAligned,
    dkimAligned: source.dkimAligned,
    headerFrom: listed(byIp.get(source.ip), 'h'),
    reporters: listed(byIp.get(source.ip), 'r'),
  }));
}

/** TLS sums per policy and per failure kind over the period ('' for an absent host or address). */
export function tlsTotalsOf(
  reports: number,
  policies: readonly { type: string; domain: string; success: number; failure: number }[],
  failures: readonly {
    resultType: string;
    receivingMx: string;
    sendingMtaIp: string;
    count: number;
  }[],
): TlsTotals {
  const sessions = { success: 0, failure: 0 };
  for (const policy of policies) {
    sessions.success += policy.success;
    sessions.failure += policy.failure;
  }
  return {
    reports,
    sessions,
    policies: policies
      .map(({ type, domain, success, failure }) => ({ type, domain, success, failure }))
      .sort(
        (a, b) =>
          b.success + b.failure - (a.success + a.failure) ||
          compareText(a.type, b.type) ||
          compareText(a.domain, b.domain),
      ),
    failures: failures
      .map((failure) => ({
        resultType: failure.resultType,
        receivingMxHostname: failure.receivingMx === '' ? null : failure.receivingMx,
        sendingMtaIp: failure.sendingMtaIp === '' ? null : failure.sendingMtaIp,
        count: failure.count,
      }))
      .sort(
        (a, b) =>
          b.count - a.count ||
          compareText(a.resultType, b.resultType) ||
          compareText(a.receivingMxHostname ?? '', b.receivingMxHostname ?? '') ||
          compareText(a.sendingMtaIp ?? '', b.sendingMtaIp ?? ''),
      ),
  };
}
