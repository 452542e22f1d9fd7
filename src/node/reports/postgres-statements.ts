import { type RollupTable, rollupTables } from '../../reports/index.js';

/**
 * The PostgreSQL report store's statements (src/node/reports/postgres-report-store.ts): the
 * SQLite store's (src/reports-sqlite/) in PostgreSQL's words. Rollup rows go several to
 * a statement, as one array per column (unnest); a source's names are jsonb, merged by the
 * statement that writes them.
 */

/** A column's array type in an unnest of rows. */
function arrayOf(table: RollupTable, column: string, position: number): string {
  const { sums } = rollupTables[table];
  const type = (sums as readonly string[]).includes(column) ? 'bigint' : 'text';
  return `$${position}::${type}[]`;
}

/**
 * A source's names and the names given summed name by name (src/reports/rollup-rows.ts), a name
 * whose records reach nothing dropped; `{}` when none is left.
 */
function mergedNames(current: string, given: string): string {
  return `coalesce((
    SELECT jsonb_object_agg(key, jsonb_build_array(records, messages)) FROM (
      SELECT key, sum((value->>0)::bigint) AS records, sum((value->>1)::bigint) AS messages
      FROM (SELECT key, value FROM jsonb_each(${current})
            UNION ALL SELECT key, value FROM jsonb_each(${given})) AS both_names
      GROUP BY key) AS summed
    WHERE records > 0), '{}'::jsonb)`;
}

/** The columns of a rollup table's rows, and their unnest (names arrive as JSON text). */
function unnested(table: RollupTable): { columns: string[]; from: string; values: string } {
  const { key, sums, names } = rollupTables[table];
  const columns = ['inbox_id', ...key, ...sums, ...(names ? ['names'] : [])];
  const arrays = columns.map((column, i) => arrayOf(table, column, i + 1));
  return {
    columns,
    from: `unnest(${arrays.join(', ')}) AS u(${columns.join(', ')})`,
    values: columns
      .map((column) => (column === 'names' ? 'u.names::jsonb' : `u.${column}`))
      .join(', '),
  };
}

/** Adds each row's numbers to the row of its key, or makes it; all rows in one statement. */
function addStatement(name: RollupTable): string {
  const { table, key, sums, names } = rollupTables[name];
  const { columns, from, values } = unnested(name);
  const set = sums.map((sum) => `${sum} = ${table}.${sum} + excluded.${sum}`);
  if (names) set.push(`names = ${mergedNames(`${table}.names`, 'excluded.names')}`);
  return `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${values} FROM ${from}
    ON CONFLICT (${['inbox_id', ...key].join(', ')}) DO UPDATE SET ${set.join(', ')}`;
}

/** Takes each row's numbers from the row of its key (one row per key: UPDATE ... FROM). */
function takeStatement(name: RollupTable): string {
  const { table, key, sums, names } = rollupTables[name];
  const { from } = unnested(name);
  const set = sums.map((sum) => `${sum} = t.${sum} + u.${sum}`);
  if (names) set.push(`names = ${mergedNames('t.names', 'u.names::jsonb')}`);
  return `UPDATE ${table} AS t SET ${set.join(', ')} FROM ${from}
    WHERE ${['inbox_id', ...key].map((column) => `t.${column} = u.${column}`).join(' AND ')}`;
}

const tables = Object.keys(rollupTables) as RollupTable[];
export const rollupStatements = Object.fromEntries(
  tables.map((name) => [name, { add: addStatement(name), take: takeStatement(name) }]),
) as Record<RollupTable, { add: string; take: string }>;

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

export const sql = {
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
  // Of rows with one key, the first is inserted; RETURNING names the reports kept.
  addReports: `INSERT INTO reports (inbox_id, kind, org, report_id, date, begin_at, end_at, records,
    messages, received_at, via, rollup) SELECT * FROM unnest($1::text[], $2::text[], $3::text[],
    $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[],
    $11::text[], $12::text[])
    ON CONFLICT DO NOTHING RETURNING kind, org, report_id AS "reportId"`,
  received: `SELECT kind, org, report_id AS "reportId", begin_at AS "begin", end_at AS "end",
    records, messages, received_at AS "receivedAt", via FROM reports
    WHERE inbox_id = $1 AND kind IN ('dmarc', 'tls') AND date BETWEEN $2 AND $3
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
  sourceNames: grained(
    'SELECT ip, names FROM dmarc_sources WHERE inbox_id = $1 AND ip = ANY($2::text[])',
    3,
  ),
  tlsReports: `SELECT count(*) AS reports FROM reports
    WHERE inbox_id = $1 AND kind = 'tls' AND date BETWEEN $2 AND $3`,
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
