import { DurableObject } from 'cloudflare:workers';
import {
  createSqliteReportStore,
  type ParsedReport,
  type Period,
  reportSqliteMigrations,
  type ReportStore,
  type Via,
} from '../../reports/index.js';
import { answer } from './answer.js';
import { durableSqliteDriver } from './durable-sqlite.js';

/**
 * One reports inbox on Workers (docs/edge.md, "Reports on Workers"): the inbox, its reports and
 * their rollups in the object's own SQLite, written and read by the SQL every SQLite store of the
 * reports runs (src/reports/sqlite-store.ts), so a report and its rollup rows are kept in one
 * transaction and the summary reads rollups, as on Node. An object runs one call at a time, and
 * an inbox's reports are never summed with another's: one object per inbox, named by its id, next
 * to whoever made it. Deleting the inbox deletes the object's storage whole. Each method answers
 * a value or a refusal (answer.ts).
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
      await this.ctx.storage.deleteAll();
      this.#store = undefined;
      return held;
    });
  }

  addReport(inboxId: string, report: ParsedReport, meta: { via: Via; receivedAt: number }) {
    return answer(() => this.store.addReport(inboxId, report, meta));
  }

  addReports(inboxId: string, reports: Parameters<ReportStore['addReports']>[1]) {
    return answer(() => this.store.addReports(inboxId, reports));
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
}
