import postgres from 'postgres';
import {
  decodeRollup,
  dmarcTotalsOf,
  type DmarcDayRow,
  encodeRollup,
  autoWatchText,
  inboxOf,
  type InboxRow,
  boundRow,
  mergedRows,
  type RollupRow,
  type Period,
  periodBuckets,
  type ReceivedReport,
  reportDate,
  reportMessages,
  recordsOf,
  reportRollup,
  type ReportStore,
  rollupRows,
  type RollupTable,
  rollupTables,
  type SourceNames,
  type SourceRow,
  sourcesOf,
  tlsTotalsOf,
} from '../../reports/index.js';
import { StoreOpenError, StoreUnavailableError } from '../../store/index.js';
import { migratePostgres } from './postgres-schema.js';
import { rollupStatements, sql } from './postgres-statements.js';

const tables = Object.keys(rollupTables) as RollupTable[];

/**
 * The report store of a fleet (`REPORTS_URL=postgres://...`, docs/reports.md "Storage"): the
 * tables and rollups of the SQLite store in PostgreSQL, shared by every process of every machine.
 * A report and its rollup rows are written in one transaction (several rows per statement, the
 * statements of a transaction pipelined on its connection); two processes adding one report at
 * once keep it once (its primary key), and rows are written in key order so that writers meet in
 * one order. A connection lost or refused is a StoreUnavailableError (503).
 */

export interface PostgresReportStoreOptions {
  /** Connections in the pool (postgres' `max`). */
  maxConnections?: number;
  /** Reports a purge forgets per transaction. */
  purgeBatch?: number;
  /** Seconds to wait for a connection. */
  connectTimeoutS?: number;
}

/** Where a URL points, without its password, for messages. */
function whereOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
  } catch {
    return 'the PostgreSQL server REPORTS_URL names';
  }
}

export async function openPostgresReportStore(
  url: string,
  options: PostgresReportStoreOptions = {},
): Promise<ReportStore> {
  const client = postgres(url, {
    max: options.maxConnections ?? 10,
    connect_timeout: options.connectTimeoutS ?? 10,
    onnotice: () => undefined,
    // A plan made for a statement's values, every time: a generic plan, which PostgreSQL takes
    // for a prepared statement after five runs, cannot see that a period's buckets are a narrow
    // range of the key, and read the sources' rollup far slower (docs/reports.md, "Storage").
    connection: { plan_cache_mode: 'force_custom_plan' },
    // Counts are bigint and sums numeric: numbers, exact below 2^53 messages.
    types: {
      bigint: {
        to: 20,
        from: [20, 1700],
        serialize: (value: number) => String(value),
        parse: (value: string) => Number(value),
      },
    },
  });
  try {
    await migratePostgres(client);
  } catch (error) {
    await client.end({ timeout: 0 });
    if (error instanceof StoreOpenError) throw error;
    throw new StoreOpenError(
      `cannot use PostgreSQL at ${whereOf(url)}: ${reasonOf(error)}: start it there, let this user create tables in that database, or set REPORTS_URL to another`,
      'REPORTS_URL',
    );
  }
  const purgeBatch = options.purgeBatch ?? 200;
  let closed = false;

  async function run<T>(work: (db: postgres.Sql) => Promise<T>): Promise<T> {
    if (closed) throw new Error('the report store is closed');
    // A deadlock or a serialization failure undoes the whole transaction: it is run again.
    for (let attempt = 1; ; attempt++) {
      try {
        return await work(client);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if ((code === '40P01' || code === '40001') && attempt < 3) continue;
        throw unavailable(error);
      }
    }
  }

  const query = <T>(db: postgres.Sql | postgres.TransactionSql, text: string, params: unknown[]) =>
    db.unsafe(text, params as postgres.ParameterOrJSON<never>[], {
      prepare: true,
    }) as unknown as Promise<T[]>;

  /** The bucket ranges of a period, as three pairs of parameters. */
  function ranges(period: Period): string[] {
    const { headDays, months, tailDays } = periodBuckets(period);
    return [headDays, months, tailDays].flatMap((range) => [range.from, range.to]);
  }

  /** Rows of a table (each led by its inbox id) as one array per column, names as JSON. */
  const columnsOf = (rows: RollupRow[]) => {
    const bound = rows.map(boundRow);
    return Array.from({ length: bound[0]?.length ?? 0 }, (_, i) => bound.map((row) => row[i]));
  };

  const addReports: ReportStore['addReports'] = (inboxId, batch) => {
    const prepared = batch.map((each) => {
      const date = reportDate(each.report);
      const rollup = reportRollup(each.report);
      return { ...each, date, rollup, key: reportKey(each.report) };
    });
    const reportColumns = [
      prepared.map(() => inboxId),
      prepared.map(({ report }) => report.kind),
      prepared.map(({ report }) => report.org),
      prepared.map(({ report }) => report.reportId),
      prepared.map(({ date }) => date),
      prepared.map(({ report }) => report.begin),
      prepared.map(({ report }) => report.end),
      prepared.map(({ report }) => recordsOf(report)),
      prepared.map(({ report }) => reportMessages(report)),
      prepared.map(({ receivedAt }) => receivedAt),
      prepared.map(({ via }) => via),
      prepared.map(({ rollup }) => encodeRollup(rollup)),
    ];
    return run((db) =>
      db.begin(async (tx) => {
        let kept: { kind: string; org: string; reportId: string }[];
        try {
          kept = await query(tx, sql.addReports, reportColumns);
          if (batch.length === 0 && (await query(tx, sql.inbox, [inboxId])).length === 0) {
            throw Object.assign(new Error('no inbox'), { code: '23503' });
          }
        } catch (error) {
          // 23503: the inbox is not there (or was deleted while this waited for it).
          if ((error as { code?: string }).code === '23503') {
            throw new Error(`no inbox ${inboxId}`, { cause: error });
          }
          throw error;
        }
        // Of a report given twice, the first copy is the one kept.
        const fresh = new Set(kept.map(reportKey));
        const answers = prepared.map(({ key }) => ({ duplicate: !fresh.delete(key) }));
        const added = prepared.filter((_, i) => !answers[i]!.duplicate);
        const rows = added.map(({ date, report, rollup }) =>
          rollupRows(date, report.org, rollup, 1),
        );
        await Promise.all(
          tables.map((name) => {
            const merged = mergedRows(
              name,
              rows.flatMap((each) => each[name].map((row) => [inboxId, ...row])),
            );
            return merged.length === 0
              ? undefined
              : query(tx, rollupStatements[name].add, columnsOf(merged));
          }),
        );
        return answers;
      }),
    );
  };

  return {
    createInbox: (inbox) =>
      run(async (db) => {
        await query(db, sql.createInbox, [
          inbox.id,
          inbox.domain,
          inbox.keyHash,
          inbox.viewToken,
          inbox.lang,
          inbox.verified,
          inbox.createdAt,
          autoWatchText(inbox.autoWatch),
        ]);
      }),

    inbox: (id) => run(async (db) => inboxOf((await query<InboxRow>(db, sql.inbox, [id]))[0])),

    inboxByViewToken: (viewToken) =>
      run(async (db) => inboxOf((await query<InboxRow>(db, sql.inboxByViewToken, [viewToken]))[0])),

    updateInbox: (id, change) =>
      run(async (db) => {
        const [row] = await query<InboxRow>(db, sql.updateInbox, [
          id,
          change.verified ?? null,
          change.autoWatch !== undefined,
          autoWatchText(change.autoWatch),
        ]);
        return inboxOf(row);
      }),

    deleteInbox: (id) =>
      run((db) =>
        db.begin(async (tx) => {
          const deleted = await query(tx, sql.deleteInbox, [id]);
          await Promise.all(
            tables.map((name) =>
              query(tx, `DELETE FROM ${rollupTables[name].table} WHERE inbox_id = $1`, [id]),
            ),
          );
          return (deleted as unknown as { count: number }).count > 0;
        }),
      ),

    async addReport(inboxId, report, meta) {
      const [answer] = await addReports(inboxId, [{ report, ...meta }]);
      return answer!;
    },

    addReports,

    received: (inboxId, period, { limit }) =>
      run((db) =>
        query<ReceivedReport>(db, sql.received, [
          inboxId,
          period.from,
          period.to,
          Math.max(0, limit),
        ]),
      ),

    dmarcTotals: (inboxId, period) =>
      run(async (db) =>
        dmarcTotalsOf(
          await query<DmarcDayRow>(db, sql.dmarcDays, [inboxId, period.from, period.to]),
        ),
      ),

    sources: (inboxId, period, page) =>
      run(async (db) => {
        const limit = page ? Math.max(0, page.limit) : null;
        const sources = await query<SourceRow>(db, sql.sources, [
          inboxId,
          ...ranges(period),
          limit,
        ]);
        const ips = sources.map((source) => source.ip);
        const names =
          ips.length === 0
            ? []
            : await query<{ ip: string; names: SourceNames }>(db, sql.sourceNames, [
                inboxId,
                ips,
                ...ranges(period),
              ]);
        return sourcesOf(sources, names);
      }),

    tlsTotals: (inboxId, period) =>
      run(async (db) => {
        const days = [inboxId, period.from, period.to];
        const [counted, policies, failures] = await Promise.all([
          query<{ reports: number }>(db, sql.tlsReports, days),
          query<{ type: string; domain: string; success: number; failure: number }>(
            db,
            sql.tlsPolicies,
            days,
          ),
          query<{ resultType: string; receivingMx: string; sendingMtaIp: string; count: number }>(
            db,
            sql.tlsFailures,
            [inboxId, ...ranges(period)],
          ),
        ]);
        return tlsTotalsOf(counted[0]?.reports ?? 0, policies, failures);
      }),

    async purge(receivedBefore) {
      let forgotten = 0;
      for (;;) {
        const batch = await run((db) =>
          db.begin(async (tx) => {
            const purged = await query<{
              inboxId: string;
              date: string;
              org: string;
              rollup: string;
            }>(tx, sql.purgeBatch, [receivedBefore, purgeBatch]);
            const taken = purged.map((report) => ({
              inboxId: report.inboxId,
              rows: rollupRows(report.date, report.org, decodeRollup(report.rollup), -1),
            }));
            for (const name of tables) {
              const rows = mergedRows(
                name,
                taken.flatMap(({ inboxId, rows: each }) =>
                  each[name].map((row) => [inboxId, ...row]),
                ),
              );
              if (rows.length === 0) continue;
              const result = (await query(
                tx,
                rollupStatements[name].take,
                columnsOf(rows),
              )) as unknown as {
                count: number;
              };
              if (result.count !== rows.length) {
                throw new Error(
                  `the ${rollupTables[name].table} rollup lacks rows of reports it counted`,
                );
              }
              const { table, sums } = rollupTables[name];
              await query(tx, `DELETE FROM ${table} WHERE ${sums[0]} = 0`, []);
            }
            return purged.length;
          }),
        );
        forgotten += batch;
        if (batch < purgeBatch) return forgotten;
      }
    },

    autoWatchInboxes: () =>
      run(async (db) =>
        (await query<InboxRow>(db, sql.autoWatchInboxes, [])).map((row) => inboxOf(row)!),
      ),

    async close() {
      if (closed) return;
      closed = true;
      await client.end({ timeout: 5 });
    },
  };
}

function reportKey(report: { kind: string; org: string; reportId: string }): string {
  return JSON.stringify([report.kind, report.org, report.reportId]);
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Connection lost or refused, the server shutting down or out of resources: a 503. */
function unavailable(error: unknown): unknown {
  const code = (error as { code?: string }).code ?? '';
  const transient =
    error instanceof postgres.PostgresError
      ? /^(08|53|57|58|40)/.test(code)
      : /^(ECONN|ETIMEDOUT|EPIPE|CONNECT_TIMEOUT|CONNECTION_)/.test(code);
  return transient
    ? new StoreUnavailableError(`the PostgreSQL report store failed (${code})`, { cause: error })
    : error;
}
