import type { ParsedReport, ReportKind, Via } from './read/index.js';

/**
 * Where the reports tool keeps its inboxes and their reports (docs/reports.md, "Storage"): SQLite
 * beside the service's other data by default, PostgreSQL for a fleet (REPORTS_URL), SQLite in a
 * Durable Object on Workers, and the memory store for tests. Every backend passes one contract
 * suite. Queries by inbox and period read indexes and rollups, never every record of a year.
 */

/** An inbox: one domain's reports, private to whoever holds its key. */
export interface Inbox {
  /** 128 random bits, base64url: the id in routes and in the inbox's address (`dmarc+<id>@...`). */
  id: string;
  /** The domain reports are taken for (it and its subdomains), ASCII lower case. */
  domain: string;
  /** The key's hash, never the key (compared in constant time, as watches' manage keys are). */
  keyHash: string;
  /** The view link's secret (`GET /reports/v1/view/{view_token}`). */
  viewToken: string;
  lang: 'en' | 'ru';
  /** Whether the domain's DMARC or TLS-RPT record names this inbox's address. */
  verified: boolean;
  /** Epoch ms. */
  createdAt: number;
  /** The auto_watch settings as the tool wrote them (JSON), or null when off. */
  autoWatch: unknown;
}

/** Dates `YYYY-MM-DD` (UTC), both included: the reports whose date (`reportDate`) lies within. */
export interface Period {
  from: string;
  to: string;
}

/** A report taken in, as `GET /reports/v1/{id}/received` lists it. */
export interface ReceivedReport {
  kind: ReportKind;
  org: string;
  reportId: string;
  /** Seconds since the epoch. */
  begin: number;
  end: number;
  /** DMARC: records; TLS: policies. */
  records: number;
  /** DMARC: messages (the sum of `row/count`); TLS: sessions. */
  messages: number;
  /** Epoch ms. */
  receivedAt: number;
  via: Via;
}

export interface DmarcTotals {
  reports: number;
  messages: number;
  /** Messages whose DMARC result was pass (DKIM or SPF aligned), and the rest. */
  pass: number;
  fail: number;
  spfAligned: number;
  dkimAligned: number;
  dispositions: { none: number; quarantine: number; reject: number };
  /** Most messages first. */
  reporters: { org: string; reports: number; messages: number; pass: number }[];
  /** Every date of the period that has reports, in order. */
  daily: { date: string; pass: number; fail: number }[];
}

/** One sending address over the period. */
export interface SourceTotals {
  ip: string;
  messages: number;
  pass: number;
  fail: number;
  spfAligned: number;
  dkimAligned: number;
  /** The header From domains it sent as, most messages first. */
  headerFrom: string[];
  /** The orgs that reported it. */
  reporters: string[];
}

export interface TlsTotals {
  reports: number;
  sessions: { success: number; failure: number };
  policies: { type: string; domain: string; success: number; failure: number }[];
  /** Most sessions first. */
  failures: {
    resultType: string;
    receivingMxHostname: string | null;
    sendingMtaIp: string | null;
    count: number;
  }[];
}

export interface ReportStore {
  createInbox(inbox: Inbox): Promise<void>;
  inbox(id: string): Promise<Inbox | undefined>;
  inboxByViewToken(viewToken: string): Promise<Inbox | undefined>;
  /** Changes an inbox; undefined when there is none. */
  updateInbox(
    id: string,
    change: Partial<Pick<Inbox, 'verified' | 'autoWatch'>>,
  ): Promise<Inbox | undefined>;
  /** Erases the inbox and every report in it; false when there was none. */
  deleteInbox(id: string): Promise<boolean>;
  /**
   * Keeps a report once per inbox, by kind, reporting org and report id: a second copy (by mail
   * and by upload, or sent twice) changes nothing and answers `duplicate: true`. Rejects, keeping
   * nothing, when the inbox does not exist (deleted meanwhile).
   */
  addReport(
    inboxId: string,
    report: ParsedReport,
    meta: { via: Via; receivedAt: number },
  ): Promise<{ duplicate: boolean }>;
  /**
   * Keeps several reports in one transaction (the reports of one message, or a batch loaded at
   * once), each as addReport would, and answers for each in order: all are kept, or none when it
   * fails. A report given twice is kept once, the second copy a duplicate. Their rollup rows are
   * summed before they are written, so a batch costs fewer writes than its reports one by one.
   */
  addReports(
    inboxId: string,
    reports: readonly { report: ParsedReport; via: Via; receivedAt: number }[],
  ): Promise<{ duplicate: boolean }[]>;
  /** The reports of the period, newest first. */
  received(inboxId: string, period: Period, page: { limit: number }): Promise<ReceivedReport[]>;
  dmarcTotals(inboxId: string, period: Period): Promise<DmarcTotals>;
  /** The sources of the period, most messages first (then by address); all when no limit. */
  sources(inboxId: string, period: Period, page?: { limit: number }): Promise<SourceTotals[]>;
  tlsTotals(inboxId: string, period: Period): Promise<TlsTotals>;
  /**
   * Forgets the reports received before `receivedBefore` (epoch ms) and their numbers. A store
   * that purges in steps stops between two when `signal` aborts (the process stopping); what is
   * left waits for the next purge.
   */
  purge(receivedBefore: number, signal?: AbortSignal): Promise<number>;
  /** The inboxes with auto_watch set: the auto-watch renewer walks them. */
  autoWatchInboxes(): Promise<Inbox[]>;
  close(): Promise<void>;
}
