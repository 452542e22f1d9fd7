import {
  type Inbox,
  mattering,
  type Period,
  type ReportStore,
  type SourceTotals,
} from '../../reports/index.js';
import type { Reputation, SourceReputations } from './reputation.js';
import type { Summary, SummarySource } from './schemas.js';

/**
 * An inbox's summary over a period (docs/reports.md, "The summary"): the store's sums, in the
 * API's names, and the reputation of the sources that matter. Every count is of messages (the sum
 * of `row/count`), not of records.
 */

/** Sources the summary lists, most messages first; sources.csv lists every one. */
export const summarySources = 100;

/** `pass / messages`, 4 decimals; null without messages, never a guess. */
export function passRate(pass: number, messages: number): number | null {
  return messages === 0 ? null : Math.round((pass / messages) * 10_000) / 10_000;
}

/** A source's line, with its reputation when it matters and is known. */
export function sourceLine(
  source: SourceTotals,
  reputation: Reputation | undefined,
): SummarySource {
  return {
    ip: source.ip,
    messages: source.messages,
    pass: source.pass,
    fail: source.fail,
    spf_aligned: source.spfAligned,
    dkim_aligned: source.dkimAligned,
    header_from: source.headerFrom,
    reporters: source.reporters,
    ptr: reputation?.ptr ?? null,
    reputation: reputation?.reputation ?? null,
  };
}

export async function summarise(
  deps: { store: ReportStore; reputations: SourceReputations; retentionDays: number },
  inbox: Inbox,
  period: Period,
  keepAlive: (work: Promise<unknown>) => void,
): Promise<Summary> {
  const { store } = deps;
  const [dmarc, listed, tls] = await Promise.all([
    store.dmarcTotals(inbox.id, period),
    store.sources(inbox.id, period, { limit: summarySources + 1 }),
    store.tlsTotals(inbox.id, period),
  ]);
  const sources = listed.slice(0, summarySources);
  // Every source failing above the share is within the first hundred: each holds over 1 %.
  const reputations = await deps.reputations.of(
    inbox.id,
    [...mattering(sources, dmarc.messages)],
    keepAlive,
  );
  return {
    id: inbox.id,
    domain: inbox.domain,
    verified: inbox.verified,
    period,
    retention_days: deps.retentionDays,
    dmarc: {
      reports: dmarc.reports,
      messages: dmarc.messages,
      pass: dmarc.pass,
      fail: dmarc.fail,
      pass_rate: passRate(dmarc.pass, dmarc.messages),
      spf_aligned: dmarc.spfAligned,
      dkim_aligned: dmarc.dkimAligned,
      dispositions: dmarc.dispositions,
      reporters: dmarc.reporters,
      daily: dmarc.daily,
    },
    sources: sources.map((source) => sourceLine(source, reputations.get(source.ip))),
    more_sources: listed.length > summarySources,
    tls: {
      reports: tls.reports,
      sessions: tls.sessions,
      policies: tls.policies,
      failures: tls.failures.map((failure) => ({
        result_type: failure.resultType,
        receiving_mx_hostname: failure.receivingMxHostname,
        sending_mta_ip: failure.sendingMtaIp,
        count: failure.count,
      })),
    },
  };
}
