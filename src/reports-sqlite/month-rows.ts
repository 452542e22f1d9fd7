import {
  type BucketRange,
  lastMonthAsDays,
  type PeriodBuckets,
  rollupTables,
  type SourceNames,
} from '../reports/index.js';
import type { SqliteDriver } from './driver.js';

/**
 * The sources' month rows of the SQLite report store (docs/reports.md, "Month rows built when
 * read"). A report writes its sources' day rows and marks its month stale in the transaction that
 * keeps it; a month's rows are built again from all its day rows, and the mark taken away, in one
 * transaction, before a period that reads the month reads it, unless it is the period's last
 * whole month: that one is read from its day rows, since the month a read ends in is the one
 * reports still arrive for, and building it again after every report would make reads write.
 * The daily retention pass builds every month marked when it starts. Built from scratch rather than
 * added to, a month is right whatever happened before: a crash between the two transactions
 * leaves the mark, so the next read builds it again, and nothing is counted twice.
 */

const { table, key, sums } = rollupTables.sources;
const columns = ['inbox_id', ...key, ...sums, 'names'];

const sql = {
  markStale: `INSERT INTO dmarc_stale_months (inbox_id, month) VALUES (?, ?) ON CONFLICT DO NOTHING`,
  staleIn: `SELECT month FROM dmarc_stale_months WHERE inbox_id = ? AND month BETWEEN ? AND ?
    ORDER BY month`,
  allStale: `SELECT inbox_id AS inboxId, month FROM dmarc_stale_months ORDER BY inbox_id, month`,
  isStale: 'SELECT 1 FROM dmarc_stale_months WHERE inbox_id = ? AND month = ?',
  forgetMonth: `DELETE FROM ${table} WHERE inbox_id = ? AND grain = 'm' AND bucket = ?`,
  days: `SELECT ip, ${sums.join(', ')}, names FROM ${table}
    WHERE inbox_id = ? AND grain = 'd' AND bucket BETWEEN ? AND ?`,
  insert: `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  unmark: 'DELETE FROM dmarc_stale_months WHERE inbox_id = ? AND month = ?',
};

type DayRow = { ip: string; names: string } & Record<(typeof sums)[number], number>;

export interface MonthRows {
  /** Marks the months of these dates stale for the inbox; inside the transaction of their rows. */
  markStale(inboxId: string, dates: Iterable<string>): void;
  /**
   * The buckets a read of the inbox's sources reads: its stale months built first, but for the
   * last whole month, read from its day rows when it is stale.
   */
  readable(inboxId: string, buckets: PeriodBuckets): PeriodBuckets;
  /** Every month marked stale now, of every inbox (the retention pass's list). */
  staleMonths(): { inboxId: string; month: string }[];
  /** Builds the month when it is still marked stale (another process may have built it). */
  buildIfStale(inboxId: string, month: string): void;
}

export function sqliteMonthRows(driver: SqliteDriver): MonthRows {
  /** One month's rows from its day rows; inside a transaction. */
  function build(inboxId: string, month: string): void {
    driver.run(sql.forgetMonth, [inboxId, month]);
    // Summed per address in place (a busy month has thousands of day rows, a few per address).
    const byIp = new Map<string, { sums: number[]; names: SourceNames }>();
    for (const day of driver.all<DayRow>(sql.days, [inboxId, `${month}-01`, `${month}-31`])) {
      const names = JSON.parse(day.names) as SourceNames;
      const found = byIp.get(day.ip);
      if (!found) {
        byIp.set(day.ip, { sums: sums.map((sum) => day[sum]), names });
        continue;
      }
      sums.forEach((sum, i) => (found.sums[i]! += day[sum]));
      for (const [name, [records, messages]] of Object.entries(names)) {
        const was = found.names[name];
        if (was) {
          was[0] += records;
          was[1] += messages;
        } else {
          found.names[name] = [records, messages];
        }
      }
    }
    for (const ip of [...byIp.keys()].sort()) {
      const { sums: summed, names } = byIp.get(ip)!;
      driver.run(sql.insert, [inboxId, 'm', month, ip, ...summed, JSON.stringify(names)]);
    }
    driver.run(sql.unmark, [inboxId, month]);
  }

  const staleIn = (inboxId: string, months: BucketRange) =>
    driver.all<{ month: string }>(sql.staleIn, [inboxId, months.from, months.to]);

  return {
    markStale(inboxId, dates) {
      for (const month of new Set([...dates].map((date) => date.slice(0, 7)))) {
        driver.run(sql.markStale, [inboxId, month]);
      }
    },

    readable(inboxId, buckets) {
      // Most reads find nothing stale and take no write lock.
      const stale = staleIn(inboxId, buckets.months);
      if (stale.length === 0) return buckets;
      const read = stale.at(-1)!.month === buckets.months.to ? lastMonthAsDays(buckets) : buckets;
      if (staleIn(inboxId, read.months).length === 0) return read;
      driver.transaction(() => {
        // Asked again under the lock: another process may have built them meanwhile.
        for (const { month } of staleIn(inboxId, read.months)) build(inboxId, month);
      });
      return read;
    },

    staleMonths: () => driver.all<{ inboxId: string; month: string }>(sql.allStale, []),

    buildIfStale(inboxId, month) {
      driver.transaction(() => {
        if (driver.all(sql.isStale, [inboxId, month]).length > 0) build(inboxId, month);
      });
    },
  };
}
