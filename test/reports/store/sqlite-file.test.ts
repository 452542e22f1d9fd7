import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openSqliteReportStore } from '../../../src/node/reports/index.js';
import { reportSqliteMigrations } from '../../../src/reports/index.js';
import { openSqliteStore } from '../../../src/node/store/index.js';
import { StoreOpenError } from '../../../src/store/index.js';
import { aDmarcReport, anInbox } from './report-builder.js';

/**
 * What only the SQLite report store does: its file, opened with the store's care, shared by the
 * processes that open it, and refused in one line naming REPORTS_URL when it cannot be used.
 */

const folder = () => mkdtempSync(join(tmpdir(), 'sqlite-reports-'));
const may = { from: '2024-05-01', to: '2024-05-31' };
const report = aDmarcReport({
  org: 'google.com',
  reportId: 'r-1',
  date: '2024-05-02',
  rows: [{ ip: '192.0.2.10', messages: 12, dkim: true }],
});

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
