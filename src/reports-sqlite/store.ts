import {
  autoWatchText,
  decodeRollup,
  dmarcTotalsOf,
  type DmarcDayRow,
  encodeRollup,
  inboxOf,
  type InboxRow,
  type PeriodBuckets,
  periodBuckets,
  type ReceivedReport,
  recordsOf,
  reportDate,
  reportMessages,
  reportRollup,
  type ReportRollup,
  type ReportStore,
  rollupTables,
  type SourceNames,
  type SourceRow,
  sourcesOf,
  tlsTotalsOf,
} from '../reports/index.js';
import type { SqliteDriver, SqlValue } from './driver.js';
import { groupCommit } from './group-commit.js';
import { sqliteMonthRows } from './month-rows.js';
import { sqliteRollupWrites } from './rollup-writes.js';

/**
 * The report store over any SQLite (docs/reports.md, "Storage"): every statement here is plain
 * SQLite with `?` parameters, run through a SqliteDriver, so Node's file (better-sqlite3) and a
 * Durable Object's database keep the same tables and answer the same way. A report and its
 * rollup rows are written in one transaction; the summary reads the rollups. The sources' month
 * rows are built from their day rows when a period reads them (src/reports-sqlite/month-rows.ts).
 */

/** A period's buckets of a grained rollup: its ragged ends by day, its whole months by month. */
function grained(select: string): string {
  return ['d', 'm', 'd']
    .map((grain) => `${select} AND grain = '${grain}' AND bucket BETWEEN ? AND ?`)
    .join(' UNION ALL ');
}

const inboxColumns = `id, domain, key_hash AS keyHash, view_token AS viewToken, lang, verified,
  created_at AS createdAt, auto_watch AS autoWatch`;

const sql = {
  createInbox: `INSERT INTO report_inboxes
    (id, domain, key_hash, view_token, lang, verified, created_at, auto_watch)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  inbox: `SELECT ${inboxColumns} FROM report_inboxes WHERE id = ?`,
  inboxByViewToken: `SELECT ${inboxColumns} FROM report_inboxes WHERE view_token = ?`,
  updateInbox: 'UPDATE report_inboxes SET verified = ?, auto_watch = ? WHERE id = ?',
  autoWatchInboxes: `SELECT ${inboxColumns} FROM report_inboxes WHERE auto_watch IS NOT NULL
    ORDER BY created_at, id`,
  deleteInbox: 'DELETE FROM report_inboxes WHERE id = ?',
  deleteStaleMonths: 'DELETE FROM dmarc_stale_months WHERE inbox_id = ?',
  deleteReports: 'DELETE FROM reports WHERE inbox_id = ?',
  addReport: `INSERT INTO reports (inbox_id, kind, org, report_id, date, begin_at, end_at, records,
    messages, received_at, via, rollup) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT DO NOTHING`,
  received: `SELECT kind, org, report_id AS reportId, begin_at AS "begin", end_at AS "end", records,
    messages, received_at AS receivedAt, via FROM reports
    WHERE inbox_id = ? AND kind IN ('dmarc', 'tls') AND date BETWEEN ? AND ?
    ORDER BY received_at DESC, end_at DESC, kind, org, report_id LIMIT ?`,
  dmarcDays: `SELECT date, org, reports, messages, pass, spf_aligned AS spfAligned,
    dkim_aligned AS dkimAligned, disposition_none AS "none", quarantine, reject
    FROM dmarc_days WHERE inbox_id = ? AND date BETWEEN ? AND ?`,
  // LIMIT -1 is no limit in SQLite.
  sources: `SELECT ip, sum(messages) AS messages, sum(pass) AS pass,
    sum(spf_aligned) AS spfAligned, sum(dkim_aligned) AS dkimAligned FROM (${grained(
      `SELECT ip, messages, pass, spf_aligned, dkim_aligned FROM dmarc_sources WHERE inbox_id = ?`,
    )}) GROUP BY ip ORDER BY messages DESC, ip LIMIT ?`,
  sourceNames: grained(
    `SELECT ip, names FROM dmarc_sources
     WHERE inbox_id = ? AND ip IN (SELECT value FROM json_each(?))`,
  ),
  tlsReports: `SELECT count(*) AS reports FROM reports
    WHERE inbox_id = ? AND kind = 'tls' AND date BETWEEN ? AND ?`,
  tlsPolicies: `SELECT policy_type AS type, policy_domain AS domain, sum(success) AS success,
    sum(failure) AS failure FROM tls_days WHERE inbox_id = ? AND date BETWEEN ? AND ?
    GROUP BY policy_type, policy_domain`,
  tlsFailures: `SELECT result_type AS resultType, receiving_mx AS receivingMx,
    sending_mta_ip AS sendingMtaIp, sum(sessions) AS count FROM (${grained(
      `SELECT result_type, receiving_mx, sending_mta_ip, sessions FROM tls_failures
       WHERE inbox_id = ?`,
    )}) GROUP BY result_type, receiving_mx, sending_mta_ip`,
  purgeBatch: `SELECT inbox_id AS inboxId, kind, org, report_id AS reportId, date, rollup
    FROM reports WHERE received_at < ? ORDER BY received_at LIMIT ?`,
  deletePurged: 'DELETE FROM reports WHERE inbox_id = ? AND kind = ? AND org = ? AND report_id = ?',
};

export interface SqliteReportStoreOptions {
  /** Reports a purge forgets per transaction: each is a short write, other writers go between. */
  purgeBatch?: number;
  /**
   * Schedules the write of the bodies waiting to be kept (Node: `setImmediate`, after the
   * requests whose bytes came in the same turn have been read); absent, each body is written at
   * once in a transaction of its own.
   */
  groupCommit?: (write: () => void) => void;
  /** Lets go of the database when the store closes. */
  onClose?: () => void;
}

/** The store over a database reportSqliteMigrations has brought up to date. */
export function createSqliteReportStore(
  driver: SqliteDriver,
  options: SqliteReportStoreOptions = {},
): ReportStore {
  const purgeBatch = options.purgeBatch ?? 100;
  let closed = false;
  const monthRows = sqliteMonthRows(driver);
  const rollupWrites = sqliteRollupWrites(driver, monthRows);
  function db(): SqliteDriver {
    if (closed) throw new Error('the report store is closed');
    return driver;
  }

  /** The three bucket ranges of a period, after the inbox id (and any other leading value). */
  function rangeParams(leading: SqlValue[], buckets: PeriodBuckets): SqlValue[] {
    const { headDays, months, tailDays } = buckets;
    return [headDays, months, tailDays].flatMap((range) => [...leading, range.from, range.to]);
  }

  type Added = { inboxId: string; date: string; org: string; rollup: ReportRollup };
  type Prepared = ReturnType<typeof prepare>;
  type Answers = Awaited<ReturnType<ReportStore['addReports']>>;

  function prepare(batch: Parameters<ReportStore['addReports']>[1]) {
    return batch.map((each) => ({
      ...each,
      date: reportDate(each.report),
      rollup: reportRollup(each.report),
    }));
  }

  /** Keeps one body's reports, inside a transaction; what they add is pushed onto `added`. */
  function keepReports(inboxId: string, prepared: Prepared, added: Added[]): Answers {
    if (driver.all(sql.inbox, [inboxId]).length === 0) throw new Error(`no inbox ${inboxId}`);
    return prepared.map(({ report, via, receivedAt, date, rollup }) => {
      const kept = driver.run(sql.addReport, [
        inboxId,
        report.kind,
        report.org,
        report.reportId,
        date,
        report.begin,
        report.end,
        recordsOf(report),
        reportMessages(report),
        receivedAt,
        via,
        encodeRollup(rollup),
      ]);
      if (kept === 0) return { duplicate: true };
      added.push({ inboxId, date, org: report.org, rollup });
      return { duplicate: false };
    });
  }

  /** Several bodies' reports in one transaction, their rollup rows of the same key summed once. */
  function keepTogether(bodies: readonly { inboxId: string; prepared: Prepared }[]): Answers[] {
    return db().transaction(() => {
      const added: Added[] = [];
      const answers = bodies.map(({ inboxId, prepared }) => keepReports(inboxId, prepared, added));
      rollupWrites.apply(added, 1);
      return answers;
    });
  }

  const together = options.groupCommit && groupCommit(options.groupCommit, keepTogether);

  const addReports: ReportStore['addReports'] = async (inboxId, batch) => {
    const body = { inboxId, prepared: prepare(batch) };
    if (!together) return keepTogether([body])[0]!;
    db();
    return together.write(body);
  };

  return {
    async createInbox(inbox) {
      db().run(sql.createInbox, [
        inbox.id,
        inbox.domain,
        inbox.keyHash,
        inbox.viewToken,
        inbox.lang,
        inbox.verified ? 1 : 0,
        inbox.createdAt,
        autoWatchText(inbox.autoWatch),
      ]);
    },

    inbox: async (id) => inboxOf(db().all<InboxRow>(sql.inbox, [id])[0]),

    inboxByViewToken: async (viewToken) =>
      inboxOf(db().all<InboxRow>(sql.inboxByViewToken, [viewToken])[0]),

    async updateInbox(id, change) {
      return db().transaction(() => {
        const inbox = inboxOf(driver.all<InboxRow>(sql.inbox, [id])[0]);
        if (!inbox) return undefined;
        if (change.verified !== undefined) inbox.verified = change.verified;
        if (change.autoWatch !== undefined) inbox.autoWatch = change.autoWatch;
        driver.run(sql.updateInbox, [inbox.verified ? 1 : 0, autoWatchText(inbox.autoWatch), id]);
        return inboxOf(driver.all<InboxRow>(sql.inbox, [id])[0]);
      });
    },

    async deleteInbox(id) {
      return db().transaction(() => {
        if (driver.run(sql.deleteInbox, [id]) === 0) return false;
        driver.run(sql.deleteReports, [id]);
        driver.run(sql.deleteStaleMonths, [id]);
        for (const { table } of Object.values(rollupTables)) {
          driver.run(`DELETE FROM ${table} WHERE inbox_id = ?`, [id]);
        }
        return true;
      });
    },

    async addReport(inboxId, report, meta) {
      const [answer] = await addReports(inboxId, [{ report, ...meta }]);
      return answer!;
    },

    addReports,

    received: async (inboxId, period, { limit }) =>
      db().all<ReceivedReport>(sql.received, [inboxId, period.from, period.to, Math.max(0, limit)]),

    dmarcTotals: async (inboxId, period) =>
      dmarcTotalsOf(db().all<DmarcDayRow>(sql.dmarcDays, [inboxId, period.from, period.to])),

    async sources(inboxId, period, page) {
      const limit = page ? Math.max(0, page.limit) : -1;
      db();
      const buckets = monthRows.readable(inboxId, periodBuckets(period));
      const sources = driver.all<SourceRow>(sql.sources, [
        ...rangeParams([inboxId], buckets),
        limit,
      ]);
      const ips = JSON.stringify(sources.map((source) => source.ip));
      const names = driver
        .all<{ ip: string; names: string }>(sql.sourceNames, rangeParams([inboxId, ips], buckets))
        .map((row) => ({ ip: row.ip, names: JSON.parse(row.names) as SourceNames }));
      return sourcesOf(sources, names);
    },

    async tlsTotals(inboxId, period) {
      const days = [inboxId, period.from, period.to];
      const [counted] = db().all<{ reports: number }>(sql.tlsReports, days);
      return tlsTotalsOf(
        counted?.reports ?? 0,
        driver.all(sql.tlsPolicies, days),
        driver.all(sql.tlsFailures, rangeParams([inboxId], periodBuckets(period))),
      );
    },

    async purge(receivedBefore, signal) {
      let forgotten = 0;
      const stopping = () => closed || signal?.aborted === true;
      while (!stopping()) {
        const batch = db().transaction(() => {
          const purged = driver.all<{
            inboxId: string;
            kind: string;
            org: string;
            reportId: string;
            date: string;
            rollup: string;
          }>(sql.purgeBatch, [receivedBefore, purgeBatch]);
          rollupWrites.apply(
            purged.map((report) => ({ ...report, rollup: decodeRollup(report.rollup) })),
            -1,
          );
          for (const report of purged) {
            driver.run(sql.deletePurged, [
              report.inboxId,
              report.kind,
              report.org,
              report.reportId,
            ]);
          }
          // The rows whose last contribution went: found through their partial indexes.
          for (const { table, sums } of Object.values(rollupTables)) {
            driver.run(`DELETE FROM ${table} WHERE ${sums[0]} = 0`, []);
          }
          return purged.length;
        });
        forgotten += batch;
        if (batch < purgeBatch) break;
        // Other work goes on between batches.
        await new Promise((next) => setTimeout(next, 0));
      }
      // The months changed since they were last built (by this purge or by reports), one a
      // transaction, so that a read seldom has a month to build: those marked now, so that
      // reports marking months meanwhile cannot keep the pass going. A month left marked when
      // the process stops is built by a later read or pass.
      for (const { inboxId, month } of stopping() ? [] : monthRows.staleMonths()) {
        if (stopping()) break;
        monthRows.buildIfStale(inboxId, month);
        await new Promise((next) => setTimeout(next, 0));
      }
      return forgotten;
    },

    autoWatchInboxes: async () =>
      db()
        .all<InboxRow>(sql.autoWatchInboxes, [])
        .map((row) => inboxOf(row)!),

    async close() {
      if (closed) return;
      together?.flush();
      closed = true;
      options.onClose?.();
    },
  };
}
