import type { Inbox, ReportStore } from '../../reports/index.js';
import { StoreUnavailableError } from '../../store/index.js';
import type { ReportDirectoryObject } from './directory-object.js';
import type { ReportInboxObject } from './inbox-object.js';
import { type Answer, valueOf } from './answer.js';

/**
 * The ReportStore on Workers (docs/edge.md, "Reports on Workers"): each inbox its own Durable
 * Object (inbox-object.ts) holding its reports and rollups in SQLite, and one directory object
 * (directory-object.ts) for what crosses inboxes: the view tokens, the inboxes with auto_watch,
 * the list a purge walks. An inbox is listed in the directory after its object has it and taken
 * off after its object let it go, so a token found always leads to an inbox that was made.
 *
 * A call an object could not answer (unreachable, overloaded, reset by a deploy) is a
 * StoreUnavailableError, a 503 as every store's failure is; so is what the object's own code
 * refused (an id taken, no such inbox), which comes back as a value (answer.ts).
 */

export interface DurableReportStoreBindings {
  REPORT_INBOX: DurableObjectNamespace<ReportInboxObject>;
  REPORT_DIRECTORY: DurableObjectNamespace<ReportDirectoryObject>;
}

export interface DurableReportStoreOptions {
  /** Put before every object's name: tests give each store its own, so they share nothing. */
  prefix?: string;
  /**
   * REPORTS_RETENTION_DAYS, in ms: each inbox's object forgets its reports this long after their
   * receipt, on its own alarm. Unset, reports stay until `purge`.
   */
  retentionMs?: number;
}

/** An object's methods, each answering a promise, as its stub is called. */
type RpcOf<T> = {
  [K in keyof T as T[K] extends (...args: never[]) => unknown ? K : never]: T[K] extends (
    ...args: infer A
  ) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never;
};

/** Inboxes a purge goes through at once. */
const purgeConcurrency = 6;

export function createDurableReportStore(
  bindings: DurableReportStoreBindings,
  options: DurableReportStoreOptions = {},
): ReportStore {
  const prefix = options.prefix ?? '';
  const inboxes = bindings.REPORT_INBOX;
  const directories = bindings.REPORT_DIRECTORY;

  let closed = false;

  async function call<T>(what: string, operation: () => Promise<T>): Promise<T> {
    if (closed) throw new Error('the report store is closed');
    try {
      return await operation();
    } catch (error) {
      throw new StoreUnavailableError(`the report store did not answer for ${what}`, {
        cause: error,
      });
    }
  }

  // A stub is called as its object's methods are: each answer a plain value (answer.ts), cloned.
  const inboxObject = (id: string) =>
    inboxes.get(inboxes.idFromName(`${prefix}inbox:${id}`)) as unknown as RpcOf<ReportInboxObject>;
  const directory = () =>
    directories.get(
      directories.idFromName(`${prefix}directory`),
    ) as unknown as RpcOf<ReportDirectoryObject>;
  const onInbox = async <T>(
    id: string,
    operation: (object: RpcOf<ReportInboxObject>) => Promise<Answer<T>>,
  ): Promise<T> => valueOf(await call(`inbox ${id}`, () => operation(inboxObject(id))));
  const onDirectory = <T>(operation: (object: RpcOf<ReportDirectoryObject>) => Promise<T>) =>
    call('the inbox directory', () => operation(directory()));

  async function inbox(id: string): Promise<Inbox | undefined> {
    return onInbox(id, (object) => object.inbox(id));
  }

  return {
    async createInbox(inbox) {
      await onInbox(inbox.id, (object) => object.createInbox(inbox));
      try {
        const listed = await onDirectory((object) =>
          object.add({
            id: inbox.id,
            viewToken: inbox.viewToken,
            createdAt: inbox.createdAt,
            autoWatch: inbox.autoWatch !== null && inbox.autoWatch !== undefined,
          }),
        );
        valueOf(listed);
      } catch (error) {
        // Unlisted, the inbox could not be found by its link: it is not kept.
        await onInbox(inbox.id, (object) => object.deleteInbox(inbox.id));
        throw error;
      }
    },

    inbox,

    async inboxByViewToken(viewToken) {
      const id = await onDirectory((object) => object.byViewToken(viewToken));
      if (id === undefined) return undefined;
      const found = await inbox(id);
      return found?.viewToken === viewToken ? found : undefined;
    },

    async updateInbox(id, change) {
      const updated = await onInbox(id, (object) => object.updateInbox(id, change));
      if (updated && change.autoWatch !== undefined) {
        const on = change.autoWatch !== null;
        await onDirectory((object) => object.setAutoWatch(id, on));
      }
      return updated;
    },

    async deleteInbox(id) {
      const held = await onInbox(id, (object) => object.deleteInbox(id));
      await onDirectory((object) => object.remove(id));
      return held;
    },

    addReport: (inboxId, report, meta) =>
      onInbox(inboxId, (object) => object.addReport(inboxId, report, meta, options.retentionMs)),

    addReports: (inboxId, reports) =>
      onInbox(inboxId, (object) => object.addReports(inboxId, [...reports], options.retentionMs)),

    received: (inboxId, period, page) =>
      onInbox(inboxId, (object) => object.received(inboxId, period, page)),

    dmarcTotals: (inboxId, period) =>
      onInbox(inboxId, (object) => object.dmarcTotals(inboxId, period)),

    sources: (inboxId, period, page) =>
      onInbox(inboxId, (object) => object.sources(inboxId, period, page)),

    tlsTotals: (inboxId, period) => onInbox(inboxId, (object) => object.tlsTotals(inboxId, period)),

    async purge(receivedBefore) {
      const ids = await onDirectory((object) => object.all());
      let forgotten = 0;
      for (let at = 0; at < ids.length; at += purgeConcurrency) {
        const counts = await Promise.all(
          ids
            .slice(at, at + purgeConcurrency)
            .map((id) => onInbox(id, (object) => object.purge(receivedBefore))),
        );
        forgotten += counts.reduce((sum, count) => sum + count, 0);
      }
      return forgotten;
    },

    async autoWatchInboxes() {
      const ids = await onDirectory((object) => object.watching());
      const found = await Promise.all(ids.map((id) => inbox(id)));
      return found.filter((entry): entry is Inbox => entry !== undefined);
    },

    // Nothing to let go of (every call is a request of its own), but no call is made after.
    async close() {
      closed = true;
    },
  };
}
