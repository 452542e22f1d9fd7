import { type Grain, monthOf } from './period-buckets.js';
import { compareKeys, type ReportRollup } from './rollups.js';

/**
 * The rollup tables' rows (src/reports/report-schema.ts) as both SQL stores write them: what a
 * report adds to each table, or takes away, and several reports' rows summed per key before they
 * are written.
 */

/**
 * A source's header From domains (`h:<domain>`) and reporters (`r:<org>`) in one bucket, each
 * with its records and messages: kept in the source's own row (JSON), merged by the statement
 * that adds to it, a name dropped when retention has taken its last record. A day's row holds a
 * few names; keeping them in rows of their own made more rows than the year had records.
 */
export type SourceNames = Record<string, [records: number, messages: number]>;

/**
 * The rollup tables: each one's key after the inbox id and the numbers it sums. The first number
 * counts the contributions summed, so a row goes when retention has taken its last one away.
 * `names`: the table's last column holds SourceNames.
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
    names: false,
  },
  sources: {
    table: 'dmarc_sources',
    key: ['grain', 'bucket', 'ip'],
    sums: ['records', 'messages', 'pass', 'spf_aligned', 'dkim_aligned'],
    names: true,
  },
  tlsDays: {
    table: 'tls_days',
    key: ['date', 'policy_type', 'policy_domain'],
    sums: ['policies', 'success', 'failure'],
    names: false,
  },
  tlsFailures: {
    table: 'tls_failures',
    key: ['grain', 'bucket', 'result_type', 'receiving_mx', 'sending_mta_ip'],
    sums: ['details', 'sessions'],
    names: false,
  },
} as const;

export type RollupTable = keyof typeof rollupTables;

/** A row: its key, its sums, then (sources) its names. */
export type RollupRow = (string | number | SourceNames)[];

/**
 * The rows a report adds to (sign 1) or takes from (sign -1) each rollup table, each in its
 * table's column order after the inbox id, sorted by key; source rows at both grains, or by day
 * alone for a store that builds their month rows from the day rows (`sourceMonths: false`).
 */
export type RollupRows = Record<RollupTable, RollupRow[]>;

export function rollupRows(
  date: string,
  org: string,
  rollup: ReportRollup,
  sign: 1 | -1,
  options: { sourceMonths?: boolean } = {},
): RollupRows {
  const grains: [Grain, string][] = [
    ['d', date],
    ['m', monthOf(date)],
  ];
  const sourceGrains = options.sourceMonths === false ? grains.slice(0, 1) : grains;
  const names = new Map<string, SourceNames>();
  for (const source of rollup.sources) {
    names.set(source.ip, { [`r:${org}`]: [sign * source.records, sign * source.messages] });
  }
  for (const entry of rollup.headerFroms) {
    const of = names.get(entry.ip);
    if (of) of[`h:${entry.name}`] = [sign * entry.records, sign * entry.messages];
  }
  const d = rollup.dmarc;
  const dmarcSums = d && [
    d.messages,
    d.pass,
    d.spfAligned,
    d.dkimAligned,
    d.none,
    d.quarantine,
    d.reject,
  ];
  return {
    dmarcDays: dmarcSums ? [[date, org, sign, ...dmarcSums.map((value) => sign * value)]] : [],
    sources: sourceGrains.flatMap(([grain, bucket]) =>
      rollup.sources.map((s) => [
        grain,
        bucket,
        s.ip,
        ...[s.records, s.messages, s.pass, s.spfAligned, s.dkimAligned].map(
          (value) => sign * value,
        ),
        names.get(s.ip)!,
      ]),
    ),
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
 * Two SourceNames summed name by name (of one sign: a batch's additions, or a purge's takings;
 * the statement that writes them drops the names a purge empties).
 */
export function mergedNames(a: SourceNames, b: SourceNames): SourceNames {
  const merged: SourceNames = { ...a };
  for (const [name, [records, messages]] of Object.entries(b)) {
    const [was, wasMessages] = merged[name] ?? [0, 0];
    merged[name] = [was + records, wasMessages + messages];
  }
  return merged;
}

/**
 * Several reports' rows for one table (each row led by its inbox id) summed per key, so a batch
 * writes each row once (and PostgreSQL's UPDATE ... FROM, which applies one source row per target
 * row, sees each key once), sorted by key so that concurrent writers lock rows in one order.
 */
export function mergedRows(table: RollupTable, rows: readonly RollupRow[]): RollupRow[] {
  const keyLength = 1 + rollupTables[table].key.length;
  const merged = new Map<string, RollupRow>();
  for (const row of rows) {
    const id = JSON.stringify(row.slice(0, keyLength));
    const found = merged.get(id);
    if (!found) {
      merged.set(id, [...row]);
      continue;
    }
    for (let i = keyLength; i < row.length; i++) {
      const value = row[i]!;
      found[i] =
        typeof value === 'number'
          ? (found[i] as number) + value
          : mergedNames(found[i] as SourceNames, value as SourceNames);
    }
  }
  return [...merged.values()].sort((a, b) =>
    compareKeys(a.slice(0, keyLength).map(String), b.slice(0, keyLength).map(String)),
  );
}

/** A row's values as SQL binds them: SourceNames as JSON text. */
export function boundRow(row: RollupRow): (string | number)[] {
  return row.map((value) => (typeof value === 'object' ? JSON.stringify(value) : value));
}
