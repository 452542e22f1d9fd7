import { DurableObject } from 'cloudflare:workers';
import { type ParsedReport, type Period, type ReportStore, type Via } from '../../reports/index.js';
import { createSqliteReportStore, reportSqliteMigrations } from '../../reports-sqlite/index.js';
import { answer } from './answer.js';
import { durableSqliteDriver } from './durable-sqlite.js';

/**
 * One reports inbox on Workers (docs/edge.md, "Reports on Workers"): the inbox, its reports and
 * their rollups in the object's own SQLite, written and read by the SQL every SQLite store of the
 * reports runs (src/reports-sqlite/store.ts), so a report and its rollup rows are kept in one
 * transaction and the summary reads rollups, as on Node. An object runs one call at a time, and
 * an inbox's reports are never summed with another's: one object per inbox, named by its id, next
 * to whoever made it. Deleting the inbox deletes the object's storage whole. Each method answers
 * a value or a refusal (answer.ts).
 *
 * Retention is the object's own: the writes say how long reports are kept (REPORTS_RETENTION_DAYS),
 * and the alarm, set for when the oldest report comes of age, forgets what has and sets itself for
 * the next, so no job has to walk every inbox.
 */
export class ReportInboxObject extends DurableObject<unknown> {
  /** The store over this object's database, brought to the latest schema on first use. */
  #store: ReportStore | undefined;

  private get store(): ReportStore {
    if (!this.#store) {
      const driver = durableSqliteDriver(this.ctx.storage);
      reportSqliteMigrations.apply(driver);
      this.#store = createSqliteReportStore(driver, { purgeBatch: 500 });
    }
    return this.#store;
  }

  createInbox(...args: Parameters<ReportStore['createInbox']>) {
    return answer(() => this.store.createInbox(...args));
  }

  inbox(id: string) {
    return answer(() => this.store.inbox(id));
  }

  updateInbox(...args: Parameters<ReportStore['updateInbox']>) {
    return answer(() => this.store.updateInbox(...args));
  }

  deleteInbox(id: string) {
    return answer(async () => {
      const held = await this.store.deleteInbox(id);
      // Nothing of the inbox is left: the object's whole storage goes, its schema with it.
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
      this.#store = undefined;
      return held;
    });
  }

  addReport(
    inboxId: string,
    report: ParsedReport,
    meta: { via: Via; receivedAt: number },
    retentionMs?: number,
  ) {
    return answer(async () => {
      const added = await this.store.addReport(inboxId, report, meta);
      await this.keepFor(retentionMs);
      return added;
    });
  }

  addReports(
    inboxId: string,
    reports: Parameters<ReportStore['addReports']>[1],
    retentionMs?: number,
  ) {
    return answer(async () => {
      const added = await this.store.addReports(inboxId, reports);
      await this.keepFor(retentionMs);
      return added;
    });
  }

  received(inboxId: string, period: Period, page: { limit: number }) {
    return answer(() => this.store.received(inboxId, period, page));
  }

  dmarcTotals(inboxId: string, period: Period) {
    return answer(() => this.store.dmarcTotals(inboxId, period));
  }

  sources(inboxId: string, period: Period, page?: { limit: number }) {
    return answer(() => this.store.sources(inboxId, period, page));
  }

  tlsTotals(inboxId: string, period: Period) {
    return answer(() => this.store.tlsTotals(inboxId, period));
  }

  purge(receivedBefore: number) {
    return answer(() => this.store.purge(receivedBefore));
  }

  /** Forgets the reports past their retention, then waits for the next to come of age. */
  override async alarm(): Promise<void> {
    const retentionMs = await this.ctx.storage.get<number>(retentionKey);
    if (retentionMs === undefined) return;
    await this.store.purge(Date.now() - retentionMs);
    await this.armRetention(retentionMs);
  }

  /** Keeps the retention the writes say, and the alarm at the oldest report's end of it. */
  private async keepFor(retentionMs: number | undefined): Promise<void> {
    if (retentionMs === undefined) return;
    await this.ctx.storage.put(retentionKey, retentionMs);
    await this.armRetention(retentionMs);
  }

  private async armRetention(retentionMs: number): Promise<void> {
    const [oldest] = this.ctx.storage.sql
      .exec<{ at: number | null }>('SELECT min(received_at) AS at FROM reports')
      .toArray();
    if (oldest?.at === null || oldest?.at === undefined) {
      await this.ctx.storage.deleteAlarm();
      return;
    }
    const due = oldest.at + retentionMs;
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm !== due) await this.ctx.storage.setAlarm(due);
  }
}

/** Where the object keeps its retention (its storage's key-value part, beside the SQL tables). */
const retentionKey = 'retention-ms';
