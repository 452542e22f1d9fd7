import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { freePort } from '../../../fixtures/free-port.js';
import { startPostgresServer } from '../../../fixtures/postgres-server.js';
import { openPostgresReportStore } from '../../../src/node/reports/index.js';
import type { ParsedReport, ReportStore } from '../../../src/reports/index.js';
import { StoreOpenError, StoreUnavailableError } from '../../../src/store/index.js';
import { freshPostgresUrl, inspectPostgres } from '../../support/postgres.js';
import { aDmarcReport, addDays, anInbox } from './report-builder.js';

/**
 * What only the PostgreSQL report store does: a server shared by several processes (here, stores
 * with pools of their own), a database migrated once however many open it together, and the
 * refusals and failures of a server that is not there or goes away.
 */

let url: string;
beforeAll(async () => {
  url = await freshPostgresUrl();
});

async function opened(at = url): Promise<ReportStore> {
  const store = await openPostgresReportStore(at, { maxConnections: 3 });
  onTestFinished(() => store.close());
  return store;
}

async function refusal(at: string): Promise<string> {
  try {
    await (await openPostgresReportStore(at, { connectTimeoutS: 3 })).close();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreOpenError);
    return (error as Error).message;
  }
  throw new Error(`${at} was opened`);
}

const year = { from: '2024-01-01', to: '2024-12-31' };

describe('the PostgreSQL report store', () => {
  it('migrates a new database once when several processes open it together', async () => {
    const fresh = await freshPostgresUrl();
    const stores = await Promise.all([opened(fresh), opened(fresh), opened(fresh)]);
    const inbox = anInbox();
    await stores[0]!.createInbox(inbox);
    expect(await stores[2]!.inbox(inbox.id)).toEqual(inbox);
    const admin = inspectPostgres(fresh);
    onTestFinished(() => admin.end());
    expect(await admin`SELECT version FROM reports_schema_version`).toEqual([{ version: 1 }]);
  });

  it('keeps a report sent to two processes at once a single time, and sums their reports exactly', async () => {
    const [one, other] = [await opened(), await opened()];
    const inbox = anInbox();
    await one.createInbox(inbox);
    // Every report touches the same rollup rows (one day, the same addresses): writers meet.
    const reports: ParsedReport[] = Array.from({ length: 40 }, (_, i) =>
      aDmarcReport({
        org: ['google.com', 'yahoo.com'][i % 2]!,
        reportId: `r-${i}`,
        date: addDays('2024-05-01', i % 3),
        rows: Array.from({ length: 20 }, (__, j) => ({
          ip: `192.0.2.${j}`,
          messages: 1 + i,
          dkim: j % 4 > 0,
        })),
      }),
    );
    const answers = await Promise.all(
      reports.flatMap((report, i) => [
        one.addReport(inbox.id, report, { via: 'smtp', receivedAt: i }),
        other.addReport(inbox.id, report, { via: 'imap', receivedAt: i }),
      ]),
    );
    expect(answers.filter((answer) => !answer.duplicate)).toHaveLength(reports.length);
    const messages = reports.reduce((sum, _, i) => sum + 20 * (1 + i), 0);
    expect((await other.dmarcTotals(inbox.id, year)).messages).toBe(messages);
    const sources = await one.sources(inbox.id, year);
    expect(sources).toHaveLength(20);
    expect(sources.every((source) => source.messages === messages / 20)).toBe(true);
    // yahoo.com sent the odd reports, one message more each.
    expect(sources[0]?.reporters).toEqual(['yahoo.com', 'google.com']);
  });

  it('is refused at open in one line naming REPORTS_URL and the server, never the password, when nothing listens', async () => {
    const port = await freePort();
    const message = await refusal(`postgres://reports:hunter2secret@127.0.0.1:${port}/reports`);
    expect(message).toMatch(
      new RegExp(
        `^REPORTS_URL: cannot use PostgreSQL at 127\\.0\\.0\\.1:${port}/reports: .*set REPORTS_URL`,
      ),
    );
    expect(message).not.toContain('hunter2secret');
    expect(message).not.toContain('\n');
  });

  it("is refused at open with PostgreSQL's reason when the database does not exist", async () => {
    const missing = new URL(url);
    missing.pathname = '/no_such_database';
    expect(await refusal(missing.href)).toMatch(/^REPORTS_URL: .*no_such_database.*does not exist/);
  });

  it('answers store unavailable (a 503) when its server goes away', async () => {
    const server = await startPostgresServer();
    let stopped = false;
    onTestFinished(async () => {
      if (!stopped) await server.stop();
    });
    const store = await opened(server.url);
    const inbox = anInbox();
    await store.createInbox(inbox);
    await server.stop();
    stopped = true;
    await expect(store.inbox(inbox.id)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(
      store.addReport(
        inbox.id,
        aDmarcReport({ org: 'a', reportId: 'b', date: '2024-05-01', rows: [] }),
        { via: 'upload', receivedAt: 1 },
      ),
    ).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});
