import type { DmarcAggregateReport, ParsedReport } from './read/index.js';
import { compareText } from './store-order.js';

/**
 * What a report adds to the rollups the stores keep (docs/reports.md, "Storage"): its rows summed
 * per source address, per address and header From domain, and per TLS policy and failure.
 * A store adds these in the transaction that keeps the report, and keeps them beside the report
 * so that retention can take exactly them away again; the summary then reads rollup rows, never
 * a year of records. Every list is sorted by its key, so two writers touch rows in one order.
 */
export interface ReportRollup {
  /** DMARC: the report's messages, passes, alignments and dispositions; null for TLS. */
  dmarc: {
    messages: number;
    pass: number;
    spfAligned: number;
    dkimAligned: number;
    none: number;
    quarantine: number;
    reject: number;
  } | null;
  /** Per source address: its records and their sums. */
  sources: {
    ip: string;
    records: number;
    messages: number;
    pass: number;
    spfAligned: number;
    dkimAligned: number;
  }[];
  /** Per source address and header From domain (the report's domain where a record has none). */
  headerFroms: { ip: string; name: string; records: number; messages: number }[];
  /** Per TLS policy type and domain: the policy entries and their session counts. */
  tlsPolicies: {
    type: string;
    domain: string;
    policies: number;
    success: number;
    failure: number;
  }[];
  /** Per TLS failure kind; an absent host or address is '' (a key column cannot be null). */
  tlsFailures: {
    resultType: string;
    receivingMx: string;
    sendingMtaIp: string;
    details: number;
    count: number;
  }[];
}

export function reportRollup(report: ParsedReport): ReportRollup {
  return report.kind === 'dmarc'
    ? { ...dmarcRollup(report), tlsPolicies: [], tlsFailures: [] }
    : {
        dmarc: null,
        sources: [],
        headerFroms: [],
        tlsPolicies: sum(
          report.policies.map((policy) => ({
            type: policy.type,
            domain: policy.domain,
            policies: 1,
            success: policy.success,
            failure: policy.failure,
          })),
          (policy) => [policy.type, policy.domain],
        ),
        tlsFailures: sum(
          report.policies.flatMap((policy) =>
            policy.failures.map((failure) => ({
              resultType: failure.resultType,
              receivingMx: failure.receivingMxHostname ?? '',
              sendingMtaIp: failure.sendingMtaIp ?? '',
              details: 1,
              count: failure.count,
            })),
          ),
          (failure) => [failure.resultType, failure.receivingMx, failure.sendingMtaIp],
        ),
      };
}

function dmarcRollup(
  report: DmarcAggregateReport,
): Pick<ReportRollup, 'dmarc' | 'sources' | 'headerFroms'> {
  const dmarc = {
    messages: 0,
    pass: 0,
    spfAligned: 0,
    dkimAligned: 0,
    none: 0,
    quarantine: 0,
    reject: 0,
  };
  const sources: ReportRollup['sources'] = [];
  const headerFroms: ReportRollup['headerFroms'] = [];
  for (const row of report.rows) {
    // The DMARC result is pass when DKIM or SPF passed aligned (RFC 7489 §3.1, §6.6.2).
    const pass = row.dkimAligned || row.spfAligned ? row.messages : 0;
    const spfAligned = row.spfAligned ? row.messages : 0;
    const dkimAligned = row.dkimAligned ? row.messages : 0;
    dmarc.messages += row.messages;
    dmarc.pass += pass;
    dmarc.spfAligned += spfAligned;
    dmarc.dkimAligned += dkimAligned;
    dmarc[row.disposition] += row.messages;
    sources.push({ ip: row.ip, records: 1, messages: row.messages, pass, spfAligned, dkimAligned });
    // A record without header_from is about the report's own domain (RFC 7489 appendix C).
    const name = row.headerFrom ?? report.policy.domain;
    headerFroms.push({ ip: row.ip, name, records: 1, messages: row.messages });
  }
  return {
    dmarc,
    sources: sum(sources, (source) => [source.ip]),
    headerFroms: sum(headerFroms, (entry) => [entry.ip, entry.name]),
  };
}

/** Entries with one key summed into one, every number added; sorted by key. */
function sum<T extends object>(entries: T[], key: (entry: T) => string[]): T[] {
  const summed = new Map<string, { key: string[]; entry: T }>();
  for (const entry of entries) {
    const parts = key(entry);
    const id = JSON.stringify(parts);
    const found = summed.get(id);
    if (!found) {
      summed.set(id, { key: parts, entry: { ...entry } });
      continue;
    }
    const into = found.entry as Record<string, unknown>;
    for (const [field, value] of Object.entries(entry)) {
      if (typeof value === 'number') into[field] = (into[field] as number) + value;
    }
  }
  return [...summed.values()].sort((a, b) => compareKeys(a.key, b.key)).map(({ entry }) => entry);
}

export function compareKeys(a: string[], b: string[]): number {
  for (let i = 0; i < a.length; i++) {
    const order = compareText(a[i]!, b[i]!);
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * A rollup as the reports table keeps it beside its report: tuples rather than objects, about
 * half the bytes (a report of 100 records keeps about 8 KB).
 */
export function encodeRollup(rollup: ReportRollup): string {
  const { dmarc } = rollup;
  return JSON.stringify({
    d: dmarc && [
      dmarc.messages,
      dmarc.pass,
      dmarc.spfAligned,
      dmarc.dkimAligned,
      dmarc.none,
      dmarc.quarantine,
      dmarc.reject,
    ],
    s: rollup.sources.map((s) => [
      s.ip,
      s.records,
      s.messages,
      s.pass,
      s.spfAligned,
      s.dkimAligned,
    ]),
    h: rollup.headerFroms.map((h) => [h.ip, h.name, h.records, h.messages]),
    p: rollup.tlsPolicies.map((p) => [p.type, p.domain, p.policies, p.success, p.failure]),
    f: rollup.tlsFailures.map((f) => [
      f.resultType,
      f.receivingMx,
      f.sendingMtaIp,
      f.details,
      f.count,
    ]),
  });
}

export function decodeRollup(text: string): ReportRollup {
  const encoded = JSON.parse(text) as {
    d: [number, number, number, number, number, number, number] | null;
    s: [string, number, number, number, number, number][];
    h: [string, string, number, number][];
    p: [string, string, number, number, number][];
    f: [string, string, string, number, number][];
  };
  const d = encoded.d;
  return {
    dmarc: d && {
      messages: d[0],
      pass: d[1],
      spfAligned: d[2],
      dkimAligned: d[3],
      none: d[4],
      quarantine: d[5],
      reject: d[6],
    },
    sources: encoded.s.map(([ip, records, messages, pass, spfAligned, dkimAligned]) => ({
      ip,
      records,
      messages,
      pass,
      spfAligned,
      dkimAligned,
    })),
    headerFroms: encoded.h.map(([ip, name, records, messages]) => ({
      ip,
      name,
      records,
      messages,
    })),
    tlsPolicies: encoded.p.map(([type, domain, policies, success, failure]) => ({
      type,
      domain,
      policies,
      success,
      failure,
    })),
    tlsFailures: encoded.f.map(([resultType, receivingMx, sendingMtaIp, details, count]) => ({
      resultType,
      receivingMx,
      sendingMtaIp,
      details,
      count,
    })),
  };
}
