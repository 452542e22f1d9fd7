import { mkdtempSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { startPostgresServer } from '../../fixtures/postgres-server.js';
import { openPostgresReportStore, openSqliteReportStore } from '../../src/node/reports/index.js';
import type { ParsedReport, Period, ReportStore, Via } from '../../src/reports/index.js';
import type { Row } from '../report.js';
import { distribution, round } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';
import {
  busyYear,
  dateOfDay,
  yearDays,
  yearEnd,
  yearOfReports,
  yearOfTlsReports,
  yearStart,
} from './reports-summary-year.js';

/**
 * 13. The reports' summary over a year of a busy domain (docs/benchmarks.md, docs/reports.md
 * "Storage"): a million DMARC records (10,000 reports of 100) and 730 TLS reports loaded into one
 * inbox of each report store, SQLite in a file under the temporary folder and PostgreSQL on a
 * throwaway server of its own (fixtures/postgres-server.ts: fsync off), in batches of a day's
 * reports; then the summary the route asks for (dmarcTotals, the top 50 sources, tlsTotals, one
 * after the other) for the last 30 days and for the whole 365, BENCH_REPORTS_SAMPLES times each
 * (default 40) after 3 unmeasured, the first of which is reported alone (on SQLite it builds the
 * month rows of the sources, src/reports-sqlite/month-rows.ts). Target: p50 under 100 ms on
 * both. Last, retention forgets the first 30 days' reports. BENCH_REPORTS_RECORDS scales the year
 * (default 1,000,000 records).
 */

const targetMs = 100;
const topSources = 50;

const periods: [label: string, period: Period][] = [
  ['30-day', { from: dateOfDay(yearDays - 30), to: yearEnd }],
  ['365-day', { from: yearStart, to: yearEnd }],
];

interface Backend {
  name: string;
  open(): Promise<{
    store: ReportStore;
    bytes: () => Promise<number>;
    /** What the database does by itself after a load (PostgreSQL's autovacuum: ANALYZE). */
    settle: () => Promise<void>;
    close(): Promise<void>;
  }>;
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    async open() {
      const folder = mkdtempSync(join(tmpdir(), 'bench-reports-'));
      const file = join(folder, 'reports.db');
      const store = openSqliteReportStore(file);
      return {
        store,
        bytes: async () => {
          const sizes = await Promise.all(
            ['', '-wal'].map((suffix) =>
              stat(`${file}${suffix}`).then(
                (info) => info.size,
                () => 0,
              ),
            ),
          );
          return sizes.reduce((sum, size) => sum + size, 0);
        },
        settle: async () => undefined,
        async close() {
          await store.close();
          rmSync(folder, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const server = await startPostgresServer({ base: tmpdir() });
      const store = await openPostgresReportStore(server.url, { maxConnections: 4 });
      return {
        store,
        bytes: async () => {
          const admin = postgres(server.url, { max: 1 });
          const [row] = await admin`SELECT pg_database_size(current_database()) AS bytes`;
          await admin.end();
          return Number(row?.bytes);
        },
        // Autovacuum would analyse the tables and set their visibility maps soon after a load
        // this size; the bench does it at once rather than wait for it.
        settle: async () => {
          const admin = postgres(server.url, { max: 1, onnotice: () => undefined });
          await admin`VACUUM ANALYZE`;
          await admin.end();
        },
        async close() {
          await store.close();
          await server.stop();
        },
      };
    },
  },
];

/** Receivers send a report some hours after its day ends. */
const arrival = (report: ParsedReport) => (report.end + 6 * 3600) * 1000;

async function load(store: ReportStore, inboxId: string, reportCount: number): Promise<number> {
  const started = performance.now();
  let day: { report: ParsedReport; via: Via; receivedAt: number }[] = [];
  let date = '';
  const flush = async () => {
    if (day.length > 0) await store.addReports(inboxId, day);
    day = [];
  };
  const shape = { ...busyYear, reports: reportCount };
  for (const report of [...yearOfReports(shape), ...yearOfTlsReports()].sort(
    (a, b) => a.begin - b.begin,
  )) {
    const reportDay = new Date(report.begin * 1000).toISOString().slice(0, 10);
    if (reportDay !== date) await flush();
    date = reportDay;
    day.push({ report, via: 'smtp', receivedAt: arrival(report) });
  }
  await flush();
  return performance.now() - started;
}

async function summary(store: ReportStore, inboxId: string, period: Period): Promise<number> {
  const started = performance.now();
  await store.dmarcTotals(inboxId, period);
  await store.sources(inboxId, period, { limit: topSources });
  await store.tlsTotals(inboxId, period);
  return performance.now() - started;
}

export async function measureReportsSummary(context: BenchContext): Promise<SectionResult> {
  const records = Number(process.env.BENCH_REPORTS_RECORDS ?? 1_000_000);
  const samples = Number(process.env.BENCH_REPORTS_SAMPLES ?? 40);
  const reportCount = Math.round(records / busyYear.recordsPerReport);
  const rows: Row[] = [];
  const details: Record<string, unknown> = {};
  for (const backend of backends) {
    const opened = await backend.open();
    const { store } = opened;
    try {
      const inboxId = 'bench-busy-domain';
      await store.createInbox({
        id: inboxId,
        domain: 'example.com',
        keyHash: 'bench',
        viewToken: 'bench-view',
        lang: 'en',
        verified: true,
        createdAt: Date.now(),
        autoWatch: null,
      });
      context.progress(`reports (${backend.name}): loading ${records} records`);
      const loadMs = await load(store, inboxId, reportCount);
      const perSecond = round((records / loadMs) * 1000, 0);
      context.progress(`reports (${backend.name}): loaded in ${round(loadMs / 1000)} s`);
      await opened.settle();
      const check = await store.dmarcTotals(inboxId, periods[1]![1]);
      rows.push({
        section: 13,
        measurement: `reports loaded into ${backend.name}: records a second (${reportCount} reports of ${busyYear.recordsPerReport} records and ${yearDays * 2} TLS reports, a day's reports a transaction; ${check.reports} reports counted)`,
        value: perSecond,
        unit: '/s',
      });
      const figures: Record<string, unknown> = {
        loadMs: round(loadMs),
        recordsPerSecond: perSecond,
      };
      for (const [label, period] of periods) {
        // The first after the load: on SQLite it builds the period's month rows from their days.
        const first = await summary(store, inboxId, period);
        figures[`${label} first`] = round(first);
        rows.push({
          section: 13,
          measurement: `reports summary, the first after the load, ${label} period, ${backend.name}${backend.name === 'SQLite' ? ' (builds the month rows of the sources the period reads)' : ''}`,
          value: round(first),
          unit: 'ms',
        });
        for (let i = 0; i < 2; i++) await summary(store, inboxId, period);
        const times: number[] = [];
        for (let i = 0; i < samples; i++) times.push(await summary(store, inboxId, period));
        const spread = distribution(times);
        figures[label] = spread;
        rows.push(
          {
            section: 13,
            measurement: `reports summary p50, ${label} period, ${backend.name} (${records} records in the year; totals, top ${topSources} sources, TLS; n=${samples}; load average ${loadavg()
              .map((load) => round(load))
              .join(' ')})`,
            value: spread.p50,
            unit: 'ms',
            target: `< ${targetMs}`,
            met: spread.p50 < targetMs,
          },
          {
            section: 13,
            measurement: `reports summary p95, ${label} period, ${backend.name}`,
            value: spread.p95,
            unit: 'ms',
          },
        );
      }
      figures.mib = round((await opened.bytes()) / 2 ** 20);
      const purgeStarted = performance.now();
      const purged = await store.purge(Date.parse(`${dateOfDay(30)}T00:00:00Z`));
      const purgeMs = performance.now() - purgeStarted;
      figures.purge = { reports: purged, ms: round(purgeMs) };
      rows.push({
        section: 13,
        measurement: `retention: the first 30 days' reports forgotten, ${backend.name} (${purged} reports and their rollup numbers; ${String(figures.mib)} MiB on disk before)`,
        value: round(purgeMs),
        unit: 'ms',
      });
      details[backend.name] = figures;
    } finally {
      await opened.close();
    }
  }
  return { rows, details };
}
