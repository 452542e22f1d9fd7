import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { WorkerBindings } from '../../src/workers/platform.js';
import { createDurableReportStore } from '../../src/workers/reports/index.js';
import { describeReportStoreContract } from '../reports/store/contract.js';
import { aDmarcReport, anInbox } from '../reports/store/report-builder.js';

/**
 * The ReportStore contract inside workerd, on the Durable Objects of wrangler.toml (an inbox per
 * object, a directory beside them: src/workers/reports/): the same suite the memory, SQLite and
 * PostgreSQL stores run, and what only this backend does.
 */

const bindings = env as unknown as WorkerBindings;
const freshPrefix = () => `${crypto.randomUUID()} `;

describeReportStoreContract('Durable Object', async () =>
  createDurableReportStore(bindings, { prefix: freshPrefix() }),
);

describe('the Durable Object report store', () => {
  it('keeps each inbox in an object of its own, and lets the whole object go with the inbox', async () => {
    const prefix = freshPrefix();
    const store = createDurableReportStore(bindings, { prefix });
    const inbox = anInbox();
    await store.createInbox(inbox);
    const report = aDmarcReport({
      org: 'google.com',
      reportId: 'r1',
      date: '2024-05-02',
      rows: [{ ip: '192.0.2.1', messages: 3, dkim: true, spf: true }],
    });
    await store.addReport(inbox.id, report, {
      via: 'email',
      receivedAt: Date.now(),
    });
    const object = bindings.REPORT_INBOX.get(
      bindings.REPORT_INBOX.idFromName(`${prefix}inbox:${inbox.id}`),
    );
    const tables = () =>
      runInDurableObject(
        object,
        (_instance, state) =>
          state.storage.sql
            .exec<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'")
            .one().n,
      );
    expect(await tables()).toBeGreaterThan(5);
    expect(await store.deleteInbox(inbox.id)).toBe(true);
    expect(await tables()).toBe(0);
    expect(await store.inboxByViewToken(inbox.viewToken)).toBeUndefined();
  });

  it("forgets an inbox's reports on its own alarm once their retention has passed", async () => {
    const prefix = freshPrefix();
    const retentionMs = 60_000;
    const store = createDurableReportStore(bindings, { prefix, retentionMs });
    const inbox = anInbox();
    await store.createInbox(inbox);
    const now = Date.now();
    const report = (reportId: string) =>
      aDmarcReport({
        org: 'google.com',
        reportId,
        date: '2024-05-02',
        rows: [{ ip: '192.0.2.1', messages: 3, dkim: true }],
      });
    // The old report comes of age in two seconds, the new one after the whole retention.
    const due = now + 2000;
    await store.addReport(inbox.id, report('old'), { via: 'smtp', receivedAt: due - retentionMs });
    await store.addReport(inbox.id, report('new'), { via: 'smtp', receivedAt: now });
    const object = bindings.REPORT_INBOX.get(
      bindings.REPORT_INBOX.idFromName(`${prefix}inbox:${inbox.id}`),
    );
    const alarm = () => runInDurableObject(object, (_instance, state) => state.storage.getAlarm());
    expect(await alarm()).toBe(due);
    // The runtime runs the alarm when due, on its own.
    const period = { from: '2024-05-01', to: '2024-05-31' };
    const kept = async () =>
      (await store.received(inbox.id, period, { limit: 10 })).map((entry) => entry.reportId);
    await expect.poll(kept, { timeout: 10_000, interval: 100 }).toEqual(['new']);
    expect((await store.dmarcTotals(inbox.id, period)).messages).toBe(3);
    // Set again for when the report left comes of age.
    await expect.poll(alarm, { timeout: 2000 }).toBe(now + retentionMs);
  });
});
