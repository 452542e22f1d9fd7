import type { Resolver } from '../../dns/index.js';
import {
  authorizesReports,
  createCheckDns,
  createDeadline,
  organizationalDomain,
  readDmarcLookup,
  reportAuthorizationName,
  tlsRptName,
} from '../../reputation/index.js';
import { type ReportsMailbox } from './addresses.js';
import { namesInbox, type SuggestedRecord, suggestDmarc, suggestTlsRpt } from './records.js';

/**
 * What the DNS says of an inbox's domain (docs/reports.md, "Pointing rua here"): the records to
 * publish, whether the report address's domain takes this domain's reports (RFC 7489 §7.1), and
 * whether the domain names the inbox's address already (verified). Asked through the service's
 * resolver within one deadline and a budget of queries, as every check asks.
 */

/** RFC 7489 §7.1: whether receivers will send this domain's reports to the report address. */
export interface Authorization {
  /** False when the address's domain is within the domain's organisational domain. */
  needed: boolean;
  /** Whether the record is there; null when the DNS did not answer. */
  authorized: boolean | null;
  /** The record the report address's operator publishes; null when none is needed. */
  record: { name: string; type: 'TXT'; value: string } | null;
  /** The same, for every domain at once: a wildcard (RFC 4592) the operator may publish instead. */
  wildcard: string | null;
  detail: string;
}

export interface InboxDns {
  suggested: { dmarc: SuggestedRecord; tls_rpt: SuggestedRecord };
  authorization: Authorization;
  /** The domain's own DMARC record, or its TLS-RPT record, names the address. */
  verified: boolean;
}

/** The DMARC lookups (and the organisational domain's), TLS-RPT and the authorization: five. */
export const inboxQueryBudget = 5;

/**
 * Reads the domain's DMARC (its own, then its organisational domain's for what a new record
 * should keep), TLS-RPT and the authorization at the mailbox's domain, all at once but the
 * organisational fallback.
 */
export async function readInboxDns(
  resolver: Resolver,
  request: { domain: string; address: string; mailbox: ReportsMailbox; deadlineMs: number },
): Promise<InboxDns> {
  const { domain, address, mailbox } = request;
  const deadline = createDeadline(request.deadlineMs);
  const dns = createCheckDns(resolver, deadline, inboxQueryBudget);
  try {
    const organizational = organizationalDomain(domain);
    const [own, tls, authorization] = await Promise.all([
      dns.query(`_dmarc.${domain}`, 'TXT').then(readDmarcLookup),
      dns.query(tlsRptName(domain), 'TXT'),
      authorizationOf(dns, domain, mailbox.domain),
    ]);
    const parent =
      own.kind === 'none' && organizational !== null && organizational !== domain
        ? {
            domain: organizational,
            lookup: readDmarcLookup(await dns.query(`_dmarc.${organizational}`, 'TXT')),
          }
        : null;
    const tlsRecords =
      tls.status === 'answer'
        ? tls.records
        : tls.status === 'nxdomain' || tls.status === 'nodata'
          ? []
          : undefined;
    return {
      suggested: {
        dmarc: suggestDmarc(domain, address, own, parent),
        tls_rpt: suggestTlsRpt(domain, address, tlsRecords),
      },
      authorization,
      verified: namesInbox(own, tlsRecords, address),
    };
  } finally {
    deadline.clear();
  }
}

async function authorizationOf(
  dns: Resolver,
  domain: string,
  destination: string,
): Promise<Authorization> {
  const own = organizationalDomain(domain) ?? domain;
  // §7.1: a destination within the domain's organisational domain takes its reports as is.
  if ((organizationalDomain(destination) ?? destination) === own) {
    return {
      needed: false,
      authorized: true,
      record: null,
      wildcard: null,
      detail: `${destination} is within ${own}: receivers send the reports without an authorization record (RFC 7489 §7.1)`,
    };
  }
  const name = reportAuthorizationName(domain, destination);
  const wildcard = `*._report._dmarc.${destination}`;
  const record = { name, type: 'TXT' as const, value: 'v=DMARC1' };
  const outcome = await dns.query(name, 'TXT');
  if (outcome.status !== 'answer' && outcome.status !== 'nxdomain' && outcome.status !== 'nodata') {
    return {
      needed: true,
      authorized: null,
      record,
      wildcard,
      detail: `${name}: no usable DNS answer (${outcome.status}); ask again with POST .../verify`,
    };
  }
  const authorized = outcome.status === 'answer' && authorizesReports(outcome.records);
  return {
    needed: true,
    authorized,
    record,
    wildcard,
    detail: authorized
      ? `${destination} takes ${domain}’s reports (${name} holds v=DMARC1)`
      : `receivers send ${domain}’s reports to ${destination} only once ${destination}’s operator publishes TXT "v=DMARC1" at ${name}, or at ${wildcard} for every domain (RFC 7489 §7.1)`,
  };
}
