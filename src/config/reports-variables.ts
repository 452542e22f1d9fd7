import { z } from 'zod';
import {
  defaultReportsUrl,
  parseReportsMailbox,
  parseReportsUrl,
  type ReportStoreLocation,
} from '../reports/index.js';
import { integer, variable } from './environment.js';

/**
 * The reports tool's variables every runtime reads (docs/reports.md): the mailbox whose
 * subaddresses are the inboxes' addresses, the bound on a body, how long reports are kept, and
 * how many sources an inbox may watch. Where the reports are kept (REPORTS_URL) and the doors that
 * listen for mail are the Node server's (src/node/config.ts); on Workers the reports live in a
 * Durable Object and mail comes through Email Routing.
 */

const mailbox = z.string().transform((text, ctx) => {
  const parsed = parseReportsMailbox(text);
  if (parsed) return parsed;
  ctx.addIssue({
    code: 'custom',
    message: 'one plain address without a +, such as dmarc@reports.example.org',
  });
  return z.NEVER;
});

/** REPORTS_URL's form (the Node server's variable: src/node/config.ts). */
export const reportsUrl = z.string().transform((url, ctx) => {
  try {
    return parseReportsUrl(url);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

/**
 * Where the reports live: REPORTS_URL, else beside the data STORE_URL names (`defaultReportsUrl`),
 * so reports survive a restart where the rest of the service's data does.
 */
export function reportsLocationOf(
  reportsUrl: ReportStoreLocation | undefined,
  storeUrl: string,
): ReportStoreLocation {
  return reportsUrl ?? parseReportsUrl(defaultReportsUrl(storeUrl));
}

export const reportsVariables = {
  mailbox: variable({
    name: 'REPORTS_ADDRESS',
    parser: mailbox,
    meaning:
      'The mailbox reports are mailed to, `dmarc@reports.example.org`: each inbox’s address is its subaddress `dmarc+<id>@reports.example.org` (RFC 5233); unset, inboxes have no address and take uploads only ([`reports.md`](reports.md#addresses)).',
  }),
  maxBytes: variable({
    name: 'REPORTS_MAX_BYTES',
    parser: integer(64 * 1024, 256 * 1024 * 1024),
    default: String(10 * 1024 * 1024),
    meaning:
      'The most bytes one upload or message may have, and the most its gzip and zip contents may expand to; past it, `report_too_large` (413, or an SMTP 552).',
  }),
  retentionDays: variable({
    name: 'REPORTS_RETENTION_DAYS',
    parser: integer(1, 3650),
    default: '365',
    meaning:
      'Days a report is kept from its receipt; a daily purge forgets older ones and their numbers ([`reports.md`](reports.md#retention)).',
  }),
  autoWatchMax: variable({
    name: 'REPORTS_AUTOWATCH_MAX',
    parser: integer(0, 10_000),
    default: '50',
    meaning:
      'IP watches one inbox’s `auto_watch` may hold at once, within the service’s watch caps ([`reports.md`](reports.md#reports-meet-watches)).',
  }),
};
