import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { openReportStore } from '../../../src/node/reports/index.js';
import { parseReportsUrl } from '../../../src/reports/index.js';
import { freshPostgresUrl } from '../../support/postgres.js';
import { aDmarcReport, anInbox } from './report-builder.js';

/** The store REPORTS_URL names is the one opened, and it keeps reports. */

let postgresUrl: string;
beforeAll(async () => {
  postgresUrl = await freshPostgresUrl();
});

describe('the report store REPORTS_URL opens', () => {
  it.each([
    ['memory:', () => 'memory:'],
    [
      'sqlite:PATH',
      () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'open-reports-')), 'reports.db')}`,
    ],
    ['postgres://', () => postgresUrl],
  ])('keeps and sums a report for %s', async (_, url) => {
    const store = await openReportStore(parseReportsUrl(url()));
    onTestFinished(() => store.close());
    const inbox = anInbox();
    await store.createInbox(inbox);
    const report = aDmarcReport({
      org: 'google.com',
      reportId: '1',
      date: '2024-05-02',
      rows: [{ ip: '192.0.2.1', messages: 3, spf: true }],
    });
    expect(await store.addReport(inbox.id, report, { via: 'upload', receivedAt: 1 })).toEqual({
      duplicate: false,
    });
    expect(
      await store.dmarcTotals(inbox.id, { from: '2024-05-01', to: '2024-05-31' }),
    ).toMatchObject({ messages: 3, pass: 3, spfAligned: 3 });
  });
});
