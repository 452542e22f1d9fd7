import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openSqliteReportStore } from '../../../src/node/reports/index.js';
import { reportSqliteMigrations } from '../../../src/reports-sqlite/index.js';
import { openSqliteStore } from '../../../src/node/store/index.js';
import { StoreOpenError } from '../../../src/store/index.js';
import { aDmarcReport, anInbox } from './report-builder.js';

/**
 * What only the SQLite report store does: its file, opened with the store's care, shared by the
 * processes that open it, and refused in one line naming REPORTS_URL when it cannot be used.
 */

const folder = () => mkdtempSync(join(tmpdir(), 'sqlite-reports-'));
const may = { from: '2024-05-01', to: '2024-05-31' };
const mayAndJune = { from: '2024-05-01', to: '2024-06-30' };
const report = aDmarcReport({
  org: 'google.com',
  reportId: 'r-1',
  date: '2024-05-02',
  rows: [{ ip: '192.0.2.10', messages: 12, dkim: true }],
});

/** A report store on a fresh file, closed when the test ends, with one inbox made. */
async function openedWithInbox() {
  const file = join(folder(), 'reports.db');
  const store = openSqliteReportStore(file);
  onTestFinished(() => store.close());
  const inbox = anInbox();
  await store.createInbox(inbox);
  return { file, store, inbox };
}

function underUmask(mask: number): void {
  const before = process.umask(mask);
  onTestFinished(() => {
    process.umask(before);
  });
}

function refusal(path: string): string {
  try {
    void openSqliteReportStore(path).close();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreOpenError);
    return (error as Error).message;
  }
  throw new Error(`${path} was opened`);
}

describe('the SQLite report file', () => {
  it('is private under umask 022: its folder 0700, the db, -wal and -shm 0600', async () => {
    underUmask(0o022);
    const dir = join(folder(), 'data');
    const file = join(dir, 'reports.db');
    const exposed: string[] = [];
    const store = openSqliteReportStore(file, { onExposedFile: (path) => exposed.push(path) });
    onTestFinished(() => store.close());
    const inbox = anInbox();
    await store.createInbox(inbox);
    await store.addReport(inbox.id, report, { via: 'upload', receivedAt: 1 });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const path of [file, `${file}-wal`, `${file}-shm`]) {
      expect(statSync(path).mode & 0o777).toBe(0o600);
    }
    expect(exposed).toEqual([]);
  });

  it('is in WAL mode at the latest schema, and keeps its reports across a reopen', async () => {
    const file = join(folder(), 'reports.db');
    const inbox = anInbox();
    const first = openSqliteReportStore(file);
    await first.createInbox(inbox);
    await first.addReport(inbox.id, report, { via: 'upload', receivedAt: 1 });
    await first.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT version FROM reports_schema_version').pluck().all()).toEqual([
      reportSqliteMigrations.latest,
    ]);
    db.close();
    const again = openSqliteReportStore(file);
    onTestFinished(() => again.close());
    expect(await again.inbox(inbox.id)).toEqual(inbox);
    expect((await again.dmarcTotals(inbox.id, may)).messages).toBe(12);
  });

  it('is shared by the stores that open it: a report one keeps, the other finds a duplicate', async () => {
    const file = join(folder(), 'reports.db');
    const one = openSqliteReportStore(file);
    const other = openSqliteReportStore(file);
    onTestFinished(async () => {
      await one.close();
      await other.close();
    });
    const inbox = anInbox();
    await one.createInbox(inbox);
    const answers = await Promise.all([
      one.addReport(inbox.id, report, { via: 'smtp', receivedAt: 1 }),
      other.addReport(inbox.id, report, { via: 'upload', receivedAt: 2 }),
    ]);
    expect(answers.map((answer) => answer.duplicate).sort()).toEqual([false, true]);
    expect((await other.dmarcTotals(inbox.id, may)).messages).toBe(12);
  });

  it('answers uploads that come together each as if alone: a duplicate among them found, the rest kept', async () => {
    const { store, inbox } = await openedWithInbox();
    const answers = await Promise.all(
      ['a', 'b', 'a', 'c'].map((id) =>
        store.addReports(inbox.id, [
          { report: { ...report, reportId: id }, via: 'upload', receivedAt: 1 },
        ]),
      ),
    );
    expect(answers.map(([answer]) => answer!.duplicate)).toEqual([false, false, true, false]);
    expect((await store.dmarcTotals(inbox.id, may)).messages).toBe(36);
    const sources = await store.sources(inbox.id, may);
    expect(sources).toHaveLength(1);
  });

  it('keeps the uploads of a group whose other upload fails, and fails only that one', async () => {
    const { store, inbox } = await openedWithInbox();
    const upload = (inboxId: string, id: string) =>
      store.addReports(inboxId, [
        { report: { ...report, reportId: id }, via: 'upload', receivedAt: 1 },
      ]);
    const outcomes = await Promise.allSettled([
      upload(inbox.id, 'first'),
      upload('inbox-that-is-gone', 'lost'),
      upload(inbox.id, 'last'),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    const received = await store.received(inbox.id, may, { limit: 10 });
    expect(received.map((each) => each.reportId).sort()).toEqual(['first', 'last']);
    expect((await store.dmarcTotals(inbox.id, may)).messages).toBe(24);
  });

  it('writes the uploads still waiting before it closes', async () => {
    const file = join(folder(), 'reports.db');
    const store = openSqliteReportStore(file);
    const inbox = anInbox();
    await store.createInbox(inbox);
    const kept = store.addReport(inbox.id, report, { via: 'upload', receivedAt: 1 });
    await store.close();
    expect((await kept).duplicate).toBe(false);
    const again = openSqliteReportStore(file);
    onTestFinished(() => again.close());
    expect((await again.dmarcTotals(inbox.id, may)).messages).toBe(12);
  });

  it('keeps a month whose building fails as it was: the next read builds it, counting nothing twice', async () => {
    const { file, store, inbox } = await openedWithInbox();
    const mayReport = (reportId: string, day: number, messages: number) =>
      aDmarcReport({
        org: 'google.com',
        reportId,
        date: `2024-05-${String(day).padStart(2, '0')}`,
        rows: [{ ip: '192.0.2.10', messages, dkim: true }],
      });
    await store.addReport(inbox.id, mayReport('r-1', 2, 12), { via: 'upload', receivedAt: 1 });
    // May and June: May is a whole month before the period's last, so the read builds it.
    expect((await store.sources(inbox.id, mayAndJune))[0]?.messages).toBe(12);
    await store.addReport(inbox.id, mayReport('r-2', 20, 5), { via: 'upload', receivedAt: 1 });
    // A crash inside the month's building, made by SQLite itself: the building's last step fails.
    const db = new Database(file);
    onTestFinished(() => void db.close());
    db.exec(`CREATE TRIGGER crash BEFORE DELETE ON dmarc_stale_months
      BEGIN SELECT RAISE(ABORT, 'crashed while building the month'); END`);
    await expect(store.sources(inbox.id, mayAndJune)).rejects.toThrow(/SQLITE_CONSTRAINT_TRIGGER/);
    const monthRows = () =>
      db
        .prepare(`SELECT messages FROM dmarc_sources WHERE grain = 'm' AND bucket = '2024-05'`)
        .pluck()
        .all();
    expect(monthRows()).toEqual([12]);
    db.exec('DROP TRIGGER crash');
    expect((await store.sources(inbox.id, mayAndJune))[0]?.messages).toBe(17);
    expect(await store.sources(inbox.id, mayAndJune)).toEqual(
      await store.sources(inbox.id, { from: '2024-05-01', to: '2024-05-30' }),
    );
    expect(monthRows()).toEqual([17]);
  });

  it('reads a period’s last whole month from its day rows while it is marked, and writes nothing', async () => {
    const { file, store, inbox } = await openedWithInbox();
    await store.addReport(inbox.id, report, { via: 'upload', receivedAt: 1 });
    const db = new Database(file, { readonly: true });
    onTestFinished(() => void db.close());
    const count = (sql: string) => db.prepare(sql).pluck().get();
    const changes = () => count('PRAGMA data_version');
    const before = changes();
    expect((await store.sources(inbox.id, may))[0]?.messages).toBe(12);
    expect(await store.sources(inbox.id, may)).toEqual(
      await store.sources(inbox.id, { from: '2024-05-01', to: '2024-05-30' }),
    );
    // Nothing written: no month row built, the mark still there, the file unchanged.
    expect(count(`SELECT count(*) FROM dmarc_sources WHERE grain = 'm'`)).toBe(0);
    expect(count('SELECT count(*) FROM dmarc_stale_months')).toBe(1);
    expect(changes()).toBe(before);
  });

  it('builds the months marked when its retention pass starts, and stops between two when told', async () => {
    const { file, store, inbox } = await openedWithInbox();
    for (const [reportId, date] of [
      ['r-may', '2024-05-02'],
      ['r-june', '2024-06-02'],
    ] as const) {
      await store.addReport(
        inbox.id,
        aDmarcReport({
          org: 'google.com',
          reportId,
          date,
          rows: [{ ip: '192.0.2.10', messages: 3 }],
        }),
        { via: 'upload', receivedAt: 1 },
      );
    }
    const db = new Database(file, { readonly: true });
    onTestFinished(() => void db.close());
    const marked = () => db.prepare('SELECT count(*) FROM dmarc_stale_months').pluck().get();
    const stopped = new AbortController();
    stopped.abort();
    expect(await store.purge(0, stopped.signal)).toBe(0);
    expect(marked()).toBe(2);
    expect(await store.purge(0)).toBe(0);
    expect(marked()).toBe(0);
    expect((await store.sources(inbox.id, mayAndJune))[0]?.messages).toBe(6);
  });

  it('takes over a file of the first schema, whose month rows were written with each report', async () => {
    const file = join(folder(), 'reports.db');
    const inbox = anInbox();
    const first = openSqliteReportStore(file);
    await first.createInbox(inbox);
    await first.addReport(inbox.id, report, { via: 'upload', receivedAt: 1 });
    // Built and unmarked (May is read as a whole month before the period's last): day and month
    // rows agree, as the first schema kept them.
    expect((await first.sources(inbox.id, mayAndJune))[0]?.messages).toBe(12);
    await first.close();
    const db = new Database(file);
    db.exec('DROP TABLE dmarc_stale_months; UPDATE reports_schema_version SET version = 1');
    db.close();
    const again = openSqliteReportStore(file);
    onTestFinished(() => again.close());
    expect((await again.sources(inbox.id, may))[0]?.messages).toBe(12);
    await again.addReport(
      inbox.id,
      { ...report, reportId: 'r-2' },
      { via: 'upload', receivedAt: 1 },
    );
    expect((await again.sources(inbox.id, may))[0]?.messages).toBe(24);
    const migrated = new Database(file, { readonly: true });
    onTestFinished(() => void migrated.close());
    expect(migrated.prepare('SELECT version FROM reports_schema_version').pluck().get()).toBe(
      reportSqliteMigrations.latest,
    );
  });

  it('keeps no day rows of a report whose month cannot be marked, nor the report', async () => {
    const { file, store, inbox } = await openedWithInbox();
    const db = new Database(file);
    onTestFinished(() => void db.close());
    db.exec(`CREATE TRIGGER crash BEFORE INSERT ON dmarc_stale_months
      BEGIN SELECT RAISE(ABORT, 'crashed before the month was marked'); END`);
    await expect(
      store.addReport(inbox.id, report, { via: 'upload', receivedAt: 1 }),
    ).rejects.toThrow(/SQLITE_CONSTRAINT_TRIGGER/);
    expect(db.prepare('SELECT count(*) FROM dmarc_sources').pluck().get()).toBe(0);
    expect(await store.received(inbox.id, may, { limit: 10 })).toEqual([]);
    db.exec('DROP TRIGGER crash');
    expect(await store.addReport(inbox.id, report, { via: 'upload', receivedAt: 1 })).toEqual({
      duplicate: false,
    });
    expect((await store.sources(inbox.id, may))[0]?.messages).toBe(12);
  });

  it('may be the file of the service store: their tables live side by side', async () => {
    const file = join(folder(), 'reputation.db');
    const store = openSqliteStore(file);
    const reports = openSqliteReportStore(file);
    onTestFinished(async () => {
      await reports.close();
      await store.close();
    });
    await store.set('token:ip:a', 'v', 60_000);
    const inbox = anInbox();
    await reports.createInbox(inbox);
    expect(await store.get('token:ip:a')).toBe('v');
    expect(await reports.inbox(inbox.id)).toEqual(inbox);
  });

  it.each([
    ['whose folder is a file', () => join(regularFile(), 'reports.db')],
    ['that is a folder', () => folder()],
    ['that is not a database', () => regularFile('this is not SQLite, just text '.repeat(40))],
  ])('is refused in one line naming REPORTS_URL: a path %s', (_, path) => {
    const message = refusal(path());
    expect(message).toMatch(/^REPORTS_URL: .*REPORTS_URL/);
    expect(message).not.toContain('STORE_URL');
    expect(message).not.toContain('\n');
  });

  it('is refused when a newer version wrote it', async () => {
    const file = join(folder(), 'reports.db');
    await openSqliteReportStore(file).close();
    const db = new Database(file);
    db.prepare('UPDATE reports_schema_version SET version = ?').run(
      reportSqliteMigrations.latest + 1,
    );
    db.close();
    expect(refusal(file)).toMatch(/^REPORTS_URL: .*schema version .*newer.*set REPORTS_URL/);
  });
});

function regularFile(content = 'x'): string {
  const path = join(folder(), 'file');
  writeFileSync(path, content);
  return path;
}
