import { StoreUnavailableError } from '../store/index.js';
import type { ReportStore } from './store.js';

/**
 * The report store of a runtime that keeps none yet (Workers, until its Durable Object store):
 * every read and write answers 503 `store_unavailable` with the reason, so the reports routes say
 * plainly that this deployment does not keep reports, rather than keep them in an isolate's memory
 * and lose them.
 */
export function unavailableReportStore(reason: string): ReportStore {
  const refuse = async (): Promise<never> => {
    throw new StoreUnavailableError(reason);
  };
  return {
    createInbox: refuse,
    inbox: refuse,
    inboxByViewToken: refuse,
    updateInbox: refuse,
    deleteInbox: refuse,
    addReport: refuse,
    addReports: refuse,
    received: refuse,
    dmarcTotals: refuse,
    sources: refuse,
    tlsTotals: refuse,
    purge: async () => 0,
    autoWatchInboxes: async () => [],
    close: async () => {},
  };
}
