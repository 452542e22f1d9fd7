import postgres from 'postgres';
import {
  decodeRollup,
  dmarcTotalsOf,
  type DmarcDayRow,
  encodeRollup,
  type Inbox,
  mergedRows,
  type Period,
  periodBuckets,
  type ReceivedReport,
  reportDate,
  reportMessages,
  reportRollup,
  type ReportStore,
  rollupRows,
  type RollupTable,
  rollupTables,
  type SourceNameRow,
  type SourceRow,
  sourcesOf,
  tlsTotalsOf,
} from '../../reports/index.js';
import { StoreOpenError, StoreUnavailableError } from '../../store/index.js';
import { migratePostgres } from './postgres-schema.js';

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

/** Adds each row's numbers to the row of its key, or makes it; all rows in one statement. */
function addStatement(name: RollupTable): string {
  const { table, key, sums } = rollupTables[name];
  const columns = ['inbox_id', ...key, ...sums];
  const arrays = columns.map(
    (column, i) => `$${i + 1}::${sums.includes(column as never) ? 'bigint' : 'text'}[]`,
  );
  return `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${arrays.join(', ')})
    ON CONFLICT (${['inbox_id', ...key].join(', ')}) DO UPDATE SET
    ${sums.map((sum) => `${sum} = ${table}.${sum} + excluded.${sum}`).join(', ')}`;
}

/** Takes each row's numbers from the row of its key (one row per key: UPDATE ... FROM). */
function takeStatement(name: RollupTable): string {
  const { table, key, sums } = rollupTables[name];
  const keys = ['inbox_id', ...key];
  const columns = [...keys, ...sums];
  const arrays = columns.map(
    (column, i) => `$${i + 1}::${sums.includes(column as never) ? 'bigint' : 'text'}[]`,
  );
  return `UPDATE ${table} AS t SET ${sums.map((sum) => `${sum} = t.${sum} + u.${sum}`).join(', ')}
    FROM unnest(${arrays.join(', ')}) AS u(${columns.join(', ')})
    WHERE ${keys.map((column) => `t.${column} = u.${column}`).join(' AND ')}`;
}

const tables = Object.keys(rollupTables) as RollupTable[];
const adds = Object.fromEntries(tables.map((name) => [name, addStatement(name)])) as Record<
  RollupTable,
  string
>;
const takes = Object.fromEntries(tables.map((name) => [name, takeStatement(name)])) as Record<
  RollupTable,
  string
>;

/** A period's buckets of a grained rollup: its ragged ends by day, its whole months by month. */
function grained(select: string, first: number): string {
  return ['d', 'm', 'd']
    .map(
      (grain, i) =>
        `${select} AND grain = '${grain}' AND bucket BETWEEN $${first + 2 * i} AND $${first + 2 * i + 1}`,
    )
    .join(' UNION ALL ');
}

const inboxColumns = `id, domain, key_hash AS "keyHash", view_token AS "viewToken", lang, verified,
  created_at AS "createdAt", auto_watch AS "autoWatch"`;

const sql = {
  createInbox: `INSERT INTO report_inboxes
    (id, domain, key_hash, view_token, lang, verified, created_at, auto_watch)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
  inbox: `SELECT ${inboxColumns} FROM report_inboxes WHERE id = $1`,
  inboxByViewToken: `SELECT ${inboxColumns} FROM report_inboxes WHERE view_token = $1`,
  updateInbox: `UPDATE report_inboxes SET verified = coalesce($2::boolean, verified),
    auto_watch = CASE WHEN $3::boolean THEN $4::text ELSE auto_watch END
    WHERE id = $1 RETURNING ${inboxColumns}`,
  autoWatchInboxes: `SELECT ${inboxColumns} FROM report_inboxes WHERE auto_watch IS NOT NULL
    ORDER BY created_at, id`,
  // Its reports go with it (ON DELETE CASCADE); the rollups are deleted beside it.
  deleteInbox: 'DELETE FROM report_inboxes WHERE id = $1',
  addReport: `INSERT INTO reports (inbox_id, kind, org, report_id, date, begin_at, end_at, records,
    messages, received_at, via, rollup) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
    ON CONFLICT DO NOTHING RETURNING 1`,
  received: `SELECT kind, org, report_id AS "reportId", begin_at AS "begin", end_at AS "end",
    records, messages, received_at AS "receivedAt", via FROM reports
    WHERE inbox_id = $1 AND date BETWEEN $2 AND $3
    ORDER BY received_at DESC, end_at DESC, kind, org, report_id LIMIT $4`,
  dmarcDays: `SELECT date, org, reports, messages, pass, spf_aligned AS "spfAligned",
    dkim_aligned AS "dkimAligned", disposition_none AS "none", quarantine, reject
    FROM dmarc_days WHERE inbox_id = $1 AND date BETWEEN $2 AND $3`,
  // LIMIT NULL is no limit.
  sources: `SELECT ip, sum(messages) AS messages, sum(pass) AS pass,
    sum(spf_aligned) AS "spfAligned", sum(dkim_aligned) AS "dkimAligned" FROM (${grained(
      'SELECT ip, messages, pass, spf_aligned, dkim_aligned FROM dmarc_sources WHERE inbox_id = $1',
      2,
    )}) AS buckets GROUP BY ip ORDER BY messages DESC, ip LIMIT $8`,
  sourceNames: `SELECT ip, kind, name, sum(messages) AS messages FROM (${grained(
    `SELECT ip, kind, name, messages FROM dmarc_source_names
     WHERE inbox_id = $1 AND ip = ANY($2::text[])`,
    3,
  )}) AS buckets GROUP BY ip, kind, name`,
  tlsReports: `SELECT count(*) AS reports FROM reports
    WHERE inbox_id = $1 AND date BETWEEN $2 AND $3 AND kind = 'tls'`,
  tlsPolicies: `SELECT policy_type AS type, policy_domain AS domain, sum(success) AS success,
    sum(failure) AS failure FROM tls_days WHERE inbox_id = $1 AND date BETWEEN $2 AND $3
    GROUP BY policy_type, policy_domain`,
  tlsFailures: `SELECT result_type AS "resultType", receiving_mx AS "receivingMx",
    sending_mta_ip AS "sendingMtaIp", sum(sessions) AS count FROM (${grained(
      `SELECT result_type, receiving_mx, sending_mta_ip, sessions FROM tls_failures
       WHERE inbox_id = $1`,
      2,
    )}) AS buckets GROUP BY result_type, receiving_mx, sending_mta_ip`,
  // SKIP LOCKED: two processes purging at once take different reports.
  purgeBatch: `DELETE FROM reports WHERE (inbox_id, kind, org, report_id) IN (
      SELECT inbox_id, kind, org, report_id FROM reports WHERE received_at < $1
      ORDER BY received_at LIMIT $2 FOR UPDATE SKIP LOCKED)
    RETURNING inbox_id AS "inboxId", date, org, rollup`,
};

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

  /** Rows of a table (each led by its inbox id) as one array per column. */
  const columnsOf = (rows: (string | number)[][], width: number) =>
    Array.from({ length: width }, (_, i) => rows.map((row) => row[i]));

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

    async addReport(inboxId, report, { via, receivedAt }) {
      const date = reportDate(report);
      const rollup = reportRollup(report);
      const rows = rollupRows(date, report.org, rollup, 1);
      return run((db) =>
        db.begin(async (tx) => {
          let added: unknown[];
          try {
            added = await query(tx, sql.addReport, [
              inboxId,
              report.kind,
              report.org,
              report.reportId,
              date,
              report.begin,
              report.end,
              report.kind === 'dmarc' ? report.rows.length : report.policies.length,
              reportMessages(report),
              receivedAt,
              via,
              encodeRollup(rollup),
            ]);
          } catch (error) {
            // 23503: the inbox is not there (or was deleted while this waited for it).
            if ((error as { code?: string }).code === '23503')
              throw new Error(`no inbox ${inboxId}`, { cause: error });
            throw error;
          }
          if (added.length === 0) return { duplicate: true };
          await Promise.all(
            tables
              .filter((name) => rows[name].length > 0)
              .map((name) => {
                const led = rows[name].map((row) => [inboxId, ...row]);
                return query(tx, adds[name], columnsOf(led, led[0]!.length));
              }),
          );
          return { duplicate: false };
        }),
      );
    },

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
            : await query<SourceNameRow>(db, sql.sourceNames, [inboxId, ips, ...ranges(period)]);
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
                takes[name],
                columnsOf(rows, rows[0]!.length),
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

interface InboxRow extends Omit<Inbox, 'autoWatch'> {
  autoWatch: string | null;
}

function autoWatchText(autoWatch: unknown): string | null {
  return autoWatch === null || autoWatch === undefined ? null : JSON.stringify(autoWatch);
}

function inboxOf(row: InboxRow | undefined): Inbox | undefined {
  if (!row) return undefined;
  return {
    ...row,
    autoWatch: row.autoWatch === null ? null : (JSON.parse(row.autoWatch) as unknown),
  };
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
