import { type RollupTable, rollupTables } from './rollup-rows.js';

/**
 * The report stores' tables (docs/reports.md, "Storage"), described once and written as SQLite's
 * and PostgreSQL's DDL, so the two keep the same tables, keys and indexes. The table names are the
 * reports' own, so REPORTS_URL may name the file or database STORE_URL names.
 *
 * - `report_inboxes`: the inboxes; a partial index finds those with auto_watch set.
 * - `reports`: one row per report kept, without its records: what `received` lists, its date
 *   (for the period), its receipt time (for retention) and its rollup (JSON), so that retention
 *   takes exactly its numbers out of the rollups.
 * - `dmarc_days`: per inbox, day and reporter: reports, messages, passes, alignments,
 *   dispositions (the totals, the reporters and the daily chart).
 * - `dmarc_sources`: per inbox, grain (day `d` or month `m`), bucket and source address, with the
 *   source's header From domains and reporters in that bucket (`names`, src/reports/rollup-rows.ts).
 * - `tls_days`: per inbox, day, policy type and domain; `tls_failures`: per inbox, grain, bucket
 *   and failure kind.
 *
 * Each rollup row counts what it sums (its first number), so the row goes when retention has
 * taken its last contribution away; a partial index finds those rows. Counts are 64-bit
 * integers; text compares byte by byte on both (SQLite's BINARY, PostgreSQL's COLLATE "C"
 * whatever the database's locale), so sources and names rank alike everywhere.
 */

/** `json`: text kept as it is; `object`: JSON the statements read and merge (jsonb in PostgreSQL). */
type ColumnType = 'text' | 'integer' | 'boolean' | 'json' | 'object';

interface Table {
  name: string;
  columns: [name: string, type: ColumnType, nullable?: 'null'][];
  primaryKey: string[];
  indexes: { name: string; columns: string[]; unique?: boolean; where?: string }[];
  /** A column that must not go below zero. */
  counted?: string;
  /** PostgreSQL: the inbox a row belongs to must exist (an inbox's deletion takes them along). */
  ofInbox?: boolean;
  /** SQLite: a table of wide rows keeps its rowid. */
  rowid?: boolean;
  /**
   * PostgreSQL: columns the primary key's index carries too, so a query reading only them reads
   * the index alone (an index-only scan). SQLite's tables without rowid are their primary key.
   */
  covering?: readonly string[];
}

const rollupTable = (name: RollupTable): Table => {
  const { table, key, sums, names } = rollupTables[name];
  return {
    name: table,
    // The sources' ranking reads the sums of a period's rows, never their names.
    ...(names ? { covering: sums.filter((sum) => sum !== 'records') } : {}),
    columns: [
      ['inbox_id', 'text'],
      ...key.map((column): [string, ColumnType] => [column, 'text']),
      ...sums.map((column): [string, ColumnType] => [column, 'integer']),
      ...(names ? [['names', 'object'] as [string, ColumnType]] : []),
    ],
    primaryKey: ['inbox_id', ...key],
    indexes: [{ name: `${table}_emptied`, columns: ['inbox_id'], where: `${sums[0]} = 0` }],
    counted: sums[0],
  };
};

/** Version 1 of the schema. A later version is a migration appended below, never an edit. */
const firstTables: Table[] = [
  {
    name: 'report_inboxes',
    columns: [
      ['id', 'text'],
      ['domain', 'text'],
      ['key_hash', 'text'],
      ['view_token', 'text'],
      ['lang', 'text'],
      ['verified', 'boolean'],
      ['created_at', 'integer'],
      ['auto_watch', 'json', 'null'],
    ],
    primaryKey: ['id'],
    indexes: [
      { name: 'report_inboxes_by_view_token', columns: ['view_token'], unique: true },
      {
        name: 'report_inboxes_watching',
        columns: ['created_at', 'id'],
        where: 'auto_watch IS NOT NULL',
      },
    ],
  },
  {
    name: 'reports',
    columns: [
      ['inbox_id', 'text'],
      ['kind', 'text'],
      ['org', 'text'],
      ['report_id', 'text'],
      ['date', 'text'],
      ['begin_at', 'integer'],
      ['end_at', 'integer'],
      ['records', 'integer'],
      ['messages', 'integer'],
      ['received_at', 'integer'],
      ['via', 'text'],
      ['rollup', 'json'],
    ],
    primaryKey: ['inbox_id', 'kind', 'org', 'report_id'],
    indexes: [
      // Kind before date: the summary counts a period's TLS reports without passing its DMARC ones.
      { name: 'reports_by_date', columns: ['inbox_id', 'kind', 'date'] },
      { name: 'reports_by_receipt', columns: ['received_at'] },
    ],
    ofInbox: true,
    rowid: true,
  },
  ...(Object.keys(rollupTables) as RollupTable[]).map(rollupTable),
];

const types: Record<'sqlite' | 'postgres', Record<ColumnType, string>> = {
  sqlite: { text: 'TEXT', integer: 'INTEGER', boolean: 'INTEGER', json: 'TEXT', object: 'TEXT' },
  postgres: {
    text: 'text COLLATE "C"',
    integer: 'bigint',
    boolean: 'boolean',
    json: 'text',
    object: 'jsonb',
  },
};

function ddl(tables: readonly Table[], dialect: 'sqlite' | 'postgres'): string {
  return tables
    .flatMap((table) => {
      const columns = table.columns.map(([name, type, nullable]) => {
        const check = table.counted === name ? ` CHECK (${name} >= 0)` : '';
        const references =
          dialect === 'postgres' && table.ofInbox && name === 'inbox_id'
            ? ' REFERENCES report_inboxes (id) ON DELETE CASCADE'
            : '';
        return `${name} ${types[dialect][type]}${nullable ? '' : ' NOT NULL'}${check}${references}`;
      });
      const withoutRowid = dialect === 'sqlite' && !table.rowid ? ' WITHOUT ROWID' : '';
      const include =
        dialect === 'postgres' && table.covering ? ` INCLUDE (${table.covering.join(', ')})` : '';
      const primaryKey = `PRIMARY KEY (${table.primaryKey.join(', ')})${include}`;
      return [
        `CREATE TABLE ${table.name} (${[...columns, primaryKey].join(', ')})${withoutRowid}`,
        ...table.indexes.map(
          (index) =>
            `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${index.name} ON ${table.name} (${index.columns.join(', ')})${index.where ? ` WHERE ${index.where}` : ''}`,
        ),
      ];
    })
    .join(';\n');
}

/**
 * Version 2, SQLite only: the months whose source day rows changed since their month rows were
 * built. The SQLite store writes a report's source rows by day alone and marks its month here, in
 * the same transaction; the month's rows are built again from its day rows, and the mark taken
 * away, in one transaction before a period reads them (src/reports-sqlite/month-rows.ts).
 */
const staleMonths: Table = {
  name: 'dmarc_stale_months',
  columns: [
    ['inbox_id', 'text'],
    ['month', 'text'],
  ],
  primaryKey: ['inbox_id', 'month'],
  indexes: [],
};

/** Each dialect's migrations, in order: the statements of each separated by semicolons. */
export const reportMigrations = {
  sqlite: [ddl(firstTables, 'sqlite'), ddl([staleMonths], 'sqlite')],
  postgres: [ddl(firstTables, 'postgres')],
} as const;

export class ReportSchemaError extends Error {}
