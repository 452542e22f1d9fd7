import { type ParsedReport, reportDate, reportMessages, type Via } from './read/index.js';
import { dmarcTotalsOf, type SourceRow, sourcesOf, tlsTotalsOf } from './rollup-reads.js';
import { rollupRows, type SourceNames } from './rollup-rows.js';
import { type ReportRollup, reportRollup } from './rollups.js';
import type { Inbox, Period, ReceivedReport, ReportStore } from './store.js';
import { compareText, inPeriod, newestFirst, ranked } from './store-order.js';

/** A report as the memory store keeps it: a private copy, its rollup, its date, how it came. */
interface Kept {
  report: ParsedReport;
  rollup: ReportRollup;
  date: string;
  via: Via;
  receivedAt: number;
}

/**
 * The report store of one process (`REPORTS_URL=memory:`), for tests and throwaway runs: lost
 * with the process. It keeps every report whole with its rollup (src/reports/rollups.ts) and sums
 * the rollups of a period's reports when asked: simple, and no faster than the reports it holds.
 * The one contract suite holds it to what the SQL stores answer (docs/reports.md, "Storage").
 */
export function createMemoryReportStore(): ReportStore {
  const inboxes = new Map<string, Inbox>();
  /** Per inbox, its reports by kind, org and report id. */
  const reports = new Map<string, Map<string, Kept>>();
  let closed = false;

  function open(): void {
    if (closed) throw new Error('the report store is closed');
  }

  function keptOf(inboxId: string, period: Period): Kept[] {
    open();
    return [...(reports.get(inboxId)?.values() ?? [])].filter((kept) =>
      inPeriod(kept.date, period),
    );
  }

  const addReports: ReportStore['addReports'] = async (inboxId, batch) => {
    open();
    const kept = reports.get(inboxId);
    if (!kept) throw new Error(`no inbox ${inboxId}`);
    return batch.map(({ report, via, receivedAt }) => {
      const key = JSON.stringify([report.kind, report.org, report.reportId]);
      if (kept.has(key)) return { duplicate: true };
      kept.set(key, {
        report: structuredClone(report),
        rollup: reportRollup(report),
        date: reportDate(report),
        via,
        receivedAt,
      });
      return { duplicate: false };
    });
  };

  return {
    async createInbox(inbox) {
      open();
      if (inboxes.has(inbox.id)) throw new Error(`an inbox ${inbox.id} exists already`);
      inboxes.set(inbox.id, structuredClone(inbox));
      reports.set(inbox.id, new Map());
    },

    async inbox(id) {
      open();
      const inbox = inboxes.get(id);
      return inbox && structuredClone(inbox);
    },

    async inboxByViewToken(viewToken) {
      open();
      for (const inbox of inboxes.values()) {
        if (inbox.viewToken === viewToken) return structuredClone(inbox);
      }
      return undefined;
    },

    async updateInbox(id, change) {
      open();
      const inbox = inboxes.get(id);
      if (!inbox) return undefined;
      if (change.verified !== undefined) inbox.verified = change.verified;
      if (change.autoWatch !== undefined) inbox.autoWatch = structuredClone(change.autoWatch);
      return structuredClone(inbox);
    },

    async deleteInbox(id) {
      open();
      reports.delete(id);
      return inboxes.delete(id);
    },

    async addReport(inboxId, report, meta) {
      const [answer] = await addReports(inboxId, [{ report, ...meta }]);
      return answer!;
    },

    addReports,

    async received(inboxId, period, { limit }) {
      const listed: ReceivedReport[] = keptOf(inboxId, period).map(
        ({ report, via, receivedAt }) => ({
          kind: report.kind,
          org: report.org,
          reportId: report.reportId,
          begin: report.begin,
          end: report.end,
          records: report.kind === 'dmarc' ? report.rows.length : report.policies.length,
          messages: reportMessages(report),
          receivedAt,
          via,
        }),
      );
      return listed.sort(newestFirst).slice(0, Math.max(0, limit));
    },

    dmarcTotals: async (inboxId, period) =>
      dmarcTotalsOf(
        keptOf(inboxId, period).flatMap(({ report, date, rollup }) =>
          rollup.dmarc ? [{ date, org: report.org, reports: 1, ...rollup.dmarc }] : [],
        ),
      ),

    async sources(inboxId, period, page) {
      const sources = new Map<string, SourceRow>();
      const names: { ip: string; names: SourceNames }[] = [];
      for (const { report, date, rollup } of keptOf(inboxId, period)) {
        for (const { ip, messages, pass, spfAligned, dkimAligned } of rollup.sources) {
          const source = getOrAdd(sources, ip, () => ({
            ip,
            messages: 0,
            pass: 0,
            spfAligned: 0,
            dkimAligned: 0,
          }));
          source.messages += messages;
          source.pass += pass;
          source.spfAligned += spfAligned;
          source.dkimAligned += dkimAligned;
        }
        // The day rows' names, as the SQL stores keep them.
        for (const row of rollupRows(date, report.org, rollup, 1).sources) {
          if (row[0] === 'd')
            names.push({ ip: row[2] as string, names: row.at(-1) as SourceNames });
        }
      }
      const all = ranked([...sources.values()], (source) => source.ip);
      return sourcesOf(page ? all.slice(0, Math.max(0, page.limit)) : all, names);
    },

    async tlsTotals(inboxId, period) {
      const policies = new Map<string, ReportRollup['tlsPolicies'][number]>();
      const failures = new Map<string, ReportRollup['tlsFailures'][number]>();
      let reports = 0;
      for (const { report, rollup } of keptOf(inboxId, period)) {
        if (report.kind !== 'tls') continue;
        reports += 1;
        for (const policy of rollup.tlsPolicies) {
          const key = JSON.stringify([policy.type, policy.domain]);
          const summed = getOrAdd(policies, key, () => ({ ...policy, success: 0, failure: 0 }));
          summed.success += policy.success;
          summed.failure += policy.failure;
        }
        for (const failure of rollup.tlsFailures) {
          const key = JSON.stringify([
            failure.resultType,
            failure.receivingMx,
            failure.sendingMtaIp,
          ]);
          const summed = getOrAdd(failures, key, () => ({ ...failure, count: 0 }));
          summed.count += failure.count;
        }
      }
      return tlsTotalsOf(reports, [...policies.values()], [...failures.values()]);
    },

    async purge(receivedBefore) {
      open();
      let forgotten = 0;
      for (const kept of reports.values()) {
        for (const [key, { receivedAt }] of kept) {
          if (receivedAt < receivedBefore) {
            kept.delete(key);
            forgotten += 1;
          }
        }
      }
      return forgotten;
    },

    async autoWatchInboxes() {
      open();
      return [...inboxes.values()]
        .filter((inbox) => inbox.autoWatch !== null && inbox.autoWatch !== undefined)
        .sort((a, b) => a.createdAt - b.createdAt || compareText(a.id, b.id))
        .map((inbox) => structuredClone(inbox));
    },

    async close() {
      closed = true;
    },
  };
}

function getOrAdd<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
