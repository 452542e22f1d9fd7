import {
  type DmarcAggregateReport,
  type ParsedReport,
  reportDate,
  reportMessages,
  type TlsReport,
  type Via,
} from './read/index.js';
import type {
  DmarcTotals,
  Inbox,
  Period,
  ReceivedReport,
  ReportStore,
  SourceTotals,
  TlsTotals,
} from './store.js';
import { compareText, inPeriod, newestFirst, ranked } from './store-order.js';

/** A report as the memory store keeps it: a private copy, its date and how it came. */
interface Kept {
  report: ParsedReport;
  date: string;
  via: Via;
  receivedAt: number;
}

/**
 * The report store of one process (`REPORTS_URL=memory:`), for tests and throwaway runs: lost
 * with the process. It keeps every report whole and sums them when asked, which is simple and
 * plainly right, and so the reference the other backends' rollups are checked against by the one
 * contract suite (docs/reports.md, "Storage").
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

  function dmarcOf(inboxId: string, period: Period): DmarcAggregateReport[] {
    return keptOf(inboxId, period).flatMap(({ report }) =>
      report.kind === 'dmarc' ? [report] : [],
    );
  }

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

    async addReport(inboxId, report, { via, receivedAt }) {
      open();
      const kept = reports.get(inboxId);
      if (!kept) throw new Error(`no inbox ${inboxId}`);
      const key = JSON.stringify([report.kind, report.org, report.reportId]);
      if (kept.has(key)) return { duplicate: true };
      kept.set(key, { report: structuredClone(report), date: reportDate(report), via, receivedAt });
      return { duplicate: false };
    },

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

    async dmarcTotals(inboxId, period) {
      const totals: DmarcTotals = {
        reports: 0,
        messages: 0,
        pass: 0,
        fail: 0,
        spfAligned: 0,
        dkimAligned: 0,
        dispositions: { none: 0, quarantine: 0, reject: 0 },
        reporters: [],
        daily: [],
      };
      const reporters = new Map<string, DmarcTotals['reporters'][number]>();
      const daily = new Map<string, DmarcTotals['daily'][number]>();
      for (const kept of keptOf(inboxId, period)) {
        const { report, date } = kept;
        if (report.kind !== 'dmarc') continue;
        totals.reports += 1;
        const reporter = getOrAdd(reporters, report.org, () => ({
          org: report.org,
          reports: 0,
          messages: 0,
          pass: 0,
        }));
        reporter.reports += 1;
        const day = getOrAdd(daily, date, () => ({ date, pass: 0, fail: 0 }));
        for (const row of report.rows) {
          const pass = row.dkimAligned || row.spfAligned;
          totals.messages += row.messages;
          totals[pass ? 'pass' : 'fail'] += row.messages;
          if (row.spfAligned) totals.spfAligned += row.messages;
          if (row.dkimAligned) totals.dkimAligned += row.messages;
          totals.dispositions[row.disposition] += row.messages;
          reporter.messages += row.messages;
          if (pass) reporter.pass += row.messages;
          day[pass ? 'pass' : 'fail'] += row.messages;
        }
      }
      totals.reporters = ranked([...reporters.values()], (reporter) => reporter.org);
      totals.daily = [...daily.values()].sort((a, b) => compareText(a.date, b.date));
      return totals;
    },

    async sources(inboxId, period, page) {
      const sources = new Map<
        string,
        SourceTotals & { names: Map<string, number>; orgs: Map<string, number> }
      >();
      for (const report of dmarcOf(inboxId, period)) {
        for (const row of report.rows) {
          const source = getOrAdd(sources, row.ip, () => ({
            ip: row.ip,
            messages: 0,
            pass: 0,
            fail: 0,
            spfAligned: 0,
            dkimAligned: 0,
            headerFrom: [],
            reporters: [],
            names: new Map(),
            orgs: new Map(),
          }));
          source.messages += row.messages;
          source[row.dkimAligned || row.spfAligned ? 'pass' : 'fail'] += row.messages;
          if (row.spfAligned) source.spfAligned += row.messages;
          if (row.dkimAligned) source.dkimAligned += row.messages;
          // A record without header_from is about the report's own domain (RFC 7489 appendix C).
          const headerFrom = row.headerFrom ?? report.policy.domain;
          source.names.set(headerFrom, (source.names.get(headerFrom) ?? 0) + row.messages);
          source.orgs.set(report.org, (source.orgs.get(report.org) ?? 0) + row.messages);
        }
      }
      const all = ranked([...sources.values()], (source) => source.ip);
      const listed = page ? all.slice(0, Math.max(0, page.limit)) : all;
      return listed.map(({ names, orgs, ...source }) => ({
        ...source,
        headerFrom: namesByMessages(names),
        reporters: namesByMessages(orgs),
      }));
    },

    async tlsTotals(inboxId, period) {
      const totals: TlsTotals = {
        reports: 0,
        sessions: { success: 0, failure: 0 },
        policies: [],
        failures: [],
      };
      const policies = new Map<string, TlsTotals['policies'][number]>();
      const failures = new Map<string, TlsTotals['failures'][number]>();
      const tls = keptOf(inboxId, period).flatMap(({ report }) =>
        report.kind === 'tls' ? [report] : ([] as TlsReport[]),
      );
      for (const report of tls) {
        totals.reports += 1;
        for (const policy of report.policies) {
          totals.sessions.success += policy.success;
          totals.sessions.failure += policy.failure;
          const summed = getOrAdd(policies, JSON.stringify([policy.type, policy.domain]), () => ({
            type: policy.type,
            domain: policy.domain,
            success: 0,
            failure: 0,
          }));
          summed.success += policy.success;
          summed.failure += policy.failure;
          for (const failure of policy.failures) {
            const { resultType, receivingMxHostname, sendingMtaIp } = failure;
            const key = JSON.stringify([resultType, receivingMxHostname, sendingMtaIp]);
            const counted = getOrAdd(failures, key, () => ({
              resultType,
              receivingMxHostname,
              sendingMtaIp,
              count: 0,
            }));
            counted.count += failure.count;
          }
        }
      }
      totals.policies = [...policies.values()].sort(
        (a, b) =>
          b.success + b.failure - (a.success + a.failure) ||
          compareText(a.type, b.type) ||
          compareText(a.domain, b.domain),
      );
      totals.failures = [...failures.values()].sort(
        (a, b) =>
          b.count - a.count ||
          compareText(a.resultType, b.resultType) ||
          compareText(a.receivingMxHostname ?? '', b.receivingMxHostname ?? '') ||
          compareText(a.sendingMtaIp ?? '', b.sendingMtaIp ?? ''),
      );
      return totals;
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

/** Names by the messages they count, most first, ties by name. */
function namesByMessages(counts: Map<string, number>): string[] {
  return [...counts].sort(([a, x], [b, y]) => y - x || compareText(a, b)).map(([name]) => name);
}
