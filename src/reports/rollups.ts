import type { DmarcAggregateReport, ParsedReport } from './read/index.js';
import { type Grain, monthOf } from './period-buckets.js';
import { compareText } from './store-order.js';

/**
 * What a report adds to the rollups the SQL stores keep (docs/reports.md, "Storage"): its rows
 * summed per source address, per address and header From domain, and per TLS policy and failure.
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

function compareKeys(a: string[], b: string[]): number {
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

/**
 * The rollup tables (src/reports/sqlite-schema.ts, and PostgreSQL's alike): each one's key after
 * the inbox id and the numbers it sums. The first number counts the contributions summed, so a
 * row goes when retention has taken its last one away.
 */
export const rollupTables = {
  dmarcDays: {
    table: 'dmarc_days',
    key: ['date', 'org'],
    sums: [
      'reports',
      'messages',
      'pass',
      'spf_aligned',
      'dkim_aligned',
      'disposition_none',
      'quarantine',
      'reject',
    ],
  },
  sources: {
    table: 'dmarc_sources',
    key: ['grain', 'bucket', 'ip'],
    sums: ['records', 'messages', 'pass', 'spf_aligned', 'dkim_aligned'],
  },
  names: {
    table: 'dmarc_source_names',
    key: ['grain', 'ip', 'bucket', 'kind', 'name'],
    sums: ['records', 'messages'],
  },
  tlsDays: {
    table: 'tls_days',
    key: ['date', 'policy_type', 'policy_domain'],
    sums: ['policies', 'success', 'failure'],
  },
  tlsFailures: {
    table: 'tls_failures',
    key: ['grain', 'bucket', 'result_type', 'receiving_mx', 'sending_mta_ip'],
    sums: ['details', 'sessions'],
  },
} as const;

export type RollupTable = keyof typeof rollupTables;

/**
 * The rows a report adds to (sign 1) or takes from (sign -1) each rollup table: its key (after
 * the inbox id) then its sums, as rollupTables names them, sorted by key; source rows at both
 * grains, the reporter of each source beside its header From domains.
 */
export type RollupRows = Record<RollupTable, (string | number)[][]>;

export function rollupRows(
  date: string,
  org: string,
  rollup: ReportRollup,
  sign: 1 | -1,
): RollupRows {
  const grains: [Grain, string][] = [
    ['d', date],
    ['m', monthOf(date)],
  ];
  const d = rollup.dmarc;
  const names = (grain: Grain, bucket: string) =>
    [
      ...rollup.headerFroms.map((h) => [h.ip, 'h', h.name, h.records, h.messages] as const),
      ...rollup.sources.map((s) => [s.ip, 'r', org, s.records, s.messages] as const),
    ]
      .sort((a, b) => compareKeys([a[0], a[1], a[2]], [b[0], b[1], b[2]]))
      .map(([ip, kind, name, records, messages]) => [
        grain,
        ip,
        bucket,
        kind,
        name,
        sign * records,
        sign * messages,
      ]);
  return {
    dmarcDays: d
      ? [
          [
            date,
            org,
            sign,
            ...[
              d.messages,
              d.pass,
              d.spfAligned,
              d.dkimAligned,
              d.none,
              d.quarantine,
              d.reject,
            ].map((value) => sign * value),
          ],
        ]
      : [],
    sources: grains.flatMap(([grain, bucket]) =>
      rollup.sources.map((s) => [
        grain,
        bucket,
        s.ip,
        ...[s.records, s.messages, s.pass, s.spfAligned, s.dkimAligned].map(
          (value) => sign * value,
        ),
      ]),
    ),
    names: grains.flatMap(([grain, bucket]) => names(grain, bucket)),
    tlsDays: rollup.tlsPolicies.map((p) => [
      date,
      p.type,
      p.domain,
      sign * p.policies,
      sign * p.success,
      sign * p.failure,
    ]),
    tlsFailures: grains.flatMap(([grain, bucket]) =>
      rollup.tlsFailures.map((f) => [
        grain,
        bucket,
        f.resultType,
        f.receivingMx,
        f.sendingMtaIp,
        sign * f.details,
        sign * f.count,
      ]),
    ),
  };
}

/**
 * Several reports' rows for one table (each row led by its inbox id) summed per key: one update
 * per row of the table, as PostgreSQL's UPDATE ... FROM needs (it applies one source row per
 * target row), sorted by key so that concurrent writers lock rows in one order.
 */
export function mergedRows(
  table: RollupTable,
  rows: readonly (string | number)[][],
): (string | number)[][] {
  const keyLength = 1 + rollupTables[table].key.length;
  const merged = new Map<string, (string | number)[]>();
  for (const row of rows) {
    const id = JSON.stringify(row.slice(0, keyLength));
    const found = merged.get(id);
    if (!found) {
      merged.set(id, [...row]);
      continue;
    }
    for (let i = keyLength; i < row.length; i++)
      found[i] = (found[i] as number) + (row[i] as number);
  }
  return [...merged.values()].sort((a, b) =>
    compareKeys(a.slice(0, keyLength).map(String), b.slice(0, keyLength).map(String)),
  );
}
