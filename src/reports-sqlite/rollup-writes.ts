import {
  boundRow,
  mergedRows,
  type ReportRollup,
  rollupRows,
  type RollupTable,
  rollupTables,
} from '../reports/index.js';
import type { SqliteDriver } from './driver.js';
import type { MonthRows } from './month-rows.js';

/**
 * How the SQLite report store writes reports' rollups (docs/reports.md, "Storage"): their rows
 * summed per key across the reports of a transaction, each then added to its row (or taken from
 * it, for retention), the sources by day only with their months marked stale
 * (src/reports-sqlite/month-rows.ts).
 */

/** Each rollup table's statements. */
const rollups = Object.fromEntries(
  Object.entries(rollupTables).map(([name, { table, key, sums, names }]) => [
    name,
    rollup(table, [...key], [...sums], names),
  ]),
) as Record<RollupTable, ReturnType<typeof rollup>>;

/**
 * A source's names and the names given summed name by name (src/reports/rollup-rows.ts), a name
 * whose records reach nothing dropped; `{}` when none is left. (Merged in JavaScript instead,
 * after one read of a day's rows, it cost as much: docs/benchmarks.md, "Reports intake".)
 */
function mergedNames(current: string, given: string): string {
  return `coalesce((
  SELECT json_group_object(key, json_array(records, messages)) FROM (
    SELECT key, sum(json_extract(value, '$[0]')) AS records,
      sum(json_extract(value, '$[1]')) AS messages
    FROM (SELECT key, value FROM json_each(${current})
          UNION ALL SELECT key, value FROM json_each(${given}))
    GROUP BY key)
  WHERE records > 0), '{}')`;
}

/**
 * `add` adds a row's numbers to the row of the same key, or makes it; `take` takes them away
 * from a row that must exist (an update: SQLite checks a CHECK on the row an upsert would have
 * inserted, so negative numbers cannot go through the upsert). A table with names merges them.
 */
function rollup(
  table: string,
  key: string[],
  sums: string[],
  names: boolean,
): { add: string; take: string; keyLength: number } {
  const keys = ['inbox_id', ...key];
  const columns = [...keys, ...sums, ...(names ? ['names'] : [])];
  const added = sums.map((sum) => `${sum} = ${sum} + excluded.${sum}`);
  const taken = sums.map((sum) => `${sum} = ${sum} + ?`);
  if (names) {
    added.push(`names = ${mergedNames(`${table}.names`, 'excluded.names')}`);
    taken.push(`names = ${mergedNames('names', '?')}`);
  }
  return {
    add: `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
      ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${added.join(', ')}`,
    take: `UPDATE ${table} SET ${taken.join(', ')}
      WHERE ${keys.map((column) => `${column} = ?`).join(' AND ')}`,
    keyLength: keys.length,
  };
}

type Reports = readonly { inboxId: string; date: string; org: string; rollup: ReportRollup }[];

export function sqliteRollupWrites(
  driver: SqliteDriver,
  monthRows: MonthRows,
): { apply(reports: Reports, sign: 1 | -1): void } {
  return {
    /** Adds reports' rollups to (sign 1) or takes them from (sign -1) the rollup tables. */
    apply(reports, sign) {
      const rows = reports.map((report) => ({
        inboxId: report.inboxId,
        rows: rollupRows(report.date, report.org, report.rollup, sign, { sourceMonths: false }),
      }));
      for (const table of Object.keys(rollups) as RollupTable[]) {
        const { add, take, keyLength } = rollups[table];
        const merged = mergedRows(
          table,
          rows.flatMap((report) => report.rows[table].map((row) => [report.inboxId, ...row])),
        );
        for (const values of merged.map(boundRow)) {
          if (sign === 1) {
            driver.run(add, values);
          } else if (
            driver.run(take, [...values.slice(keyLength), ...values.slice(0, keyLength)]) !== 1
          ) {
            throw new Error(`the ${table} rollup lacks a row of a report it counted`);
          }
        }
      }
      for (const inboxId of new Set(reports.map((report) => report.inboxId))) {
        monthRows.markStale(
          inboxId,
          reports
            .filter((report) => report.inboxId === inboxId && report.rollup.sources.length > 0)
            .map((report) => report.date),
        );
      }
    },
  };
}
