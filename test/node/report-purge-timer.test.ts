import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/index.js';
import { startReportPurge } from '../../src/node/report-purge-timer.js';
import { createMemoryReportStore } from '../../src/reports/index.js';
import { aDmarcReport, anInbox } from '../reports/store/report-builder.js';

/**
 * The reports' retention on Node (docs/reports.md, "Retention"): a purge at start and then every
 * period, forgetting the reports received more than REPORTS_RETENTION_DAYS ago and nothing newer,
 * and a stop that waits for the purge under way.
 */

const dayMs = 86_400_000;
const now = new Date('2025-06-30T12:00:00Z');

describe('the report purge', () => {
  it('forgets at start, and again each period, what was received before the retention', async () => {
    const store = createMemoryReportStore();
    const inbox = anInbox();
    await store.createInbox(inbox);
    const row = { ip: '192.0.2.1', messages: 3, dkim: true };
    const old = aDmarcReport({
      org: 'google.com',
      reportId: 'old',
      date: '2025-05-10',
      rows: [row],
    });
    const recent = aDmarcReport({
      org: 'google.com',
      reportId: 'recent',
      date: '2025-06-20',
      rows: [row],
    });
    await store.addReport(inbox.id, old, { via: 'upload', receivedAt: now.getTime() - 40 * dayMs });
    await store.addReport(inbox.id, recent, { via: 'upload', receivedAt: now.getTime() - dayMs });
    const lines: string[] = [];
    let clock = now;
    const purge = startReportPurge(store, {
      retentionDays: 30,
      clock: () => clock,
      log: createLogger('info', (line) => lines.push(line)),
      everyMs: 50,
    });
    const kept = async () =>
      (await store.received(inbox.id, { from: '2025-01-01', to: '2025-12-31' }, { limit: 10 })).map(
        (report) => report.reportId,
      );
    await expect.poll(kept).toEqual(['recent']);
    expect(lines.some((line) => line.includes('reports purged'))).toBe(true);
    // A month later the recent one is past 30 days too: the next round takes it.
    clock = new Date(now.getTime() + 30 * dayMs);
    await expect.poll(kept).toEqual([]);
    await purge.stop();
  });
});
