import type { Resolver } from '../../dns/index.js';
import {
  addressesToCheck,
  type CheckOutcome,
  checkDomainLists,
  discoverSenderIps,
  domainListCounts,
  domainQueryBudget,
  reverseDns,
  senderAddresses,
  spfSummary,
  summariseAddress,
} from '../checks/index.js';
import { type DnsblEngine, listsAsked } from '../lists/index.js';
import {
  createCheckDns,
  createDeadline,
  type Deadline,
  noPublicAddress,
} from '../lookups/index.js';
import { type MailCheckResult, maxCallerSelectors } from '../results/index.js';
import { checkBimi } from './bimi.js';
import { checkDkim, dkimResult } from './dkim-check.js';
import {
  bundledSelectorTable,
  isSelector,
  providersSeen,
  type SelectorTable,
  selectorsToTry,
} from './dkim-selectors.js';
import { checkDmarcDetails } from './dmarc-check.js';
import { mailScoreOf } from './mail-score.js';
import { checkMtaSts } from './mta-sts-check.js';
import {
  checkDane,
  checkMxHosts,
  isNullMx,
  hostNamedRecords,
  mostPreferred,
  port25MayBeBlocked,
} from './mx-check.js';
import {
  capacityShortage,
  destinationBound,
  type MailProbes,
  type ProbeParty,
  reachableBy,
  serviceLimitOf,
} from './probes/index.js';
import { fixesOf } from './fixes.js';
import { findingsOf, judgeRequirements, type SampledSender } from './requirement-rules.js';
import { readTlsRpt, tlsRptName } from './tls-rpt.js';
import { inboundTlsRule } from './transport-rules.js';

/**
 * The mail check (docs/mail.md): the domain check's SPF, DMARC and MX discovery and its check of
 * the domain on the domain lists, then DKIM, DMARC's report destinations, BIMI, MTA-STS, TLS-RPT
 * and DANE in DNS, the MX hosts probed over SMTP, a sample of the SPF sender addresses' reverse
 * DNS and listings, the providers' requirements, the score and what to fix first. The DNS parts
 * keep to `deadlineMs` and a query budget; the probes and the policy fetch to `probeDeadlineMs`
 * from the start, so a tarpit costs no more than that. A name that does not exist is refused as
 * the domain tool refuses it.
 */

export interface MailCheckDeps extends Omit<MailProbes, 'timeoutMs'> {
  resolver: Resolver;
  dnsbl: DnsblEngine;
  /** The DNS parts' deadline (CHECK_DEADLINE_MS). */
  deadlineMs: number;
  /** When the probes and the policy fetch are given up, from the check's start (SMTP_TIMEOUT_MS and a margin). */
  probeDeadlineMs: number;
  now: () => Date;
  /** The common selectors (assets/dkim-selectors.json by default). */
  selectorTable?: SelectorTable;
}

export interface MailCheckOptions extends ProbeParty {
  /** The caller's DKIM selectors (at most `maxCallerSelectors`, each `isSelector`). */
  selectors?: readonly string[];
  /**
   * Why no blocklist is proven now (the service's readiness reason), when the check runs anyway:
   * its own records and probes need none, and a note says why the sender addresses' listings
   * are missing (every list is disabled until one is proven, so none is asked).
   */
  listsUnavailable?: string;
}

/**
 * SPF sender addresses sampled for the ptr and listing rules (a PTR, its forward lookups, the
 * lists): the addresses that send, not the MX hosts, which only receive.
 */
export const maxSampledSenders = 4;

/**
 * Queries a mail check may send besides the DNSBL ones: the domain check's, and the selectors,
 * report destinations, MX addresses, TLSA, BIMI, MTA-STS, TLS-RPT and the sample's reverse DNS.
 */
export const mailQueryBudget = domainQueryBudget + 128;

export type MailCheckOutcome = CheckOutcome<MailCheckResult>;

async function sampleSenders(
  dns: Resolver,
  dnsbl: DnsblEngine,
  ips: readonly string[],
  deadline: Deadline,
): Promise<SampledSender[]> {
  const sample = addressesToCheck(ips).slice(0, maxSampledSenders);
  return Promise.all(
    sample.map(async (ip) => {
      const [rdns, listing] = await Promise.all([
        reverseDns(dns, ip, deadline),
        summariseAddress(dnsbl, ip, deadline),
      ]);
      return { ip, rdns, listing };
    }),
  );
}

export async function checkMail(
  deps: MailCheckDeps,
  domain: { name: string; display: string },
  options: MailCheckOptions = {},
): Promise<MailCheckOutcome> {
  const deadline = createDeadline(deps.deadlineMs);
  const probeDeadline = createDeadline(deps.probeDeadlineMs);
  const name = domain.name;
  // The route validates the caller's selectors; the check keeps to the same bound whoever calls it.
  const caller = (options.selectors ?? []).filter(isSelector).slice(0, maxCallerSelectors);
  const table = deps.selectorTable ?? bundledSelectorTable();
  // PROBE_ALLOW_NETWORKS for the operator's checks only; the adapters apply the same rule again.
  const operator = options.operator === true;
  const reachable = reachableBy(deps.reachable, { operator });
  try {
    const dns = createCheckDns(deps.resolver, deadline, mailQueryBudget);
    const domainListsAsked = checkDomainLists(deps.dnsbl, name, deadline);
    const sendersAsked = discoverSenderIps(dns, name, {
      deadlineMs: Math.round(deps.deadlineMs * 0.6),
      within: deadline,
    });
    // The MX answer, as the domain check read it; the policy's coverage waits for it.
    const mxAnswer = dns.query(name, 'MX');
    const mxHosts = mxAnswer.then((outcome) =>
      outcome.status === 'answer' && !isNullMx(outcome.records)
        ? hostNamedRecords(outcome.records).map((record) =>
            record.exchange.toLowerCase().replace(/\.$/, ''),
          )
        : [],
    );
    const firstSelectors = selectorsToTry(table, { caller, mxHosts: [], spfDomains: [] });
    const dkimFirst = checkDkim(dns, name, firstSelectors);
    const tlsRptAsked = dns.query(tlsRptName(name), 'TXT');
    const mtaStsAsked = checkMtaSts(
      dns,
      { policy: deps.policy, reachable, operator, signal: probeDeadline.signal },
      name,
      mxHosts,
    );
    const senders = await sendersAsked;
    const mx = await mxAnswer;
    if (
      senders.spf.status === 'unavailable' &&
      mx.status !== 'answer' &&
      mx.status !== 'nxdomain' &&
      mx.status !== 'nodata'
    ) {
      return {
        ok: false,
        error: 'dns_unavailable',
        reason: `no DNS answer for ${name}`,
        listsAsked: listsAsked(await domainListsAsked),
      };
    }
    // NXDOMAIN: no name, no records of any kind (RFC 8020): the domain tool's answer, not a score.
    if (mx.status === 'nxdomain') {
      return { ok: false, error: 'invalid_target', reason: noPublicAddress(name) };
    }
    // The SPF record's single addresses: the servers that send (the MX hosts only receive).
    const spfSenders = senderAddresses([...senders.spf.ip4, ...senders.spf.ip6]);
    const mxRecords = mx.status === 'answer' ? mx.records : [];
    const nullMx = isNullMx(mxRecords);
    const namedRecords = nullMx ? [] : hostNamedRecords(mxRecords);
    const implicitMx = mxRecords.length === 0 && senders.implicitMx;
    const probedRecords = nullMx
      ? []
      : implicitMx
        ? [{ exchange: name, priority: 0 }]
        : namedRecords;

    // Selectors of the providers the MX hosts and SPF includes show, beyond those asked already.
    const inferred = selectorsToTry(table, {
      caller,
      mxHosts: probedRecords.map((record) => record.exchange),
      spfDomains: senders.spf.domains,
    }).filter((tried) => !firstSelectors.some((first) => first.selector === tried.selector));
    const dmarcAsked = checkDmarcDetails(dns, name, senders.dmarc, senders.dmarcReading);
    const probedHosts = mostPreferred(probedRecords).map((record) =>
      record.exchange.toLowerCase().replace(/\.$/, ''),
    );
    const [
      dkimLooked,
      dkimMore,
      dmarc,
      hosts,
      sample,
      bimi,
      tlsRptOutcome,
      mtaSts,
      dane,
      domainReport,
    ] = await Promise.all([
      dkimFirst,
      checkDkim(dns, name, inferred),
      dmarcAsked,
      checkMxHosts(
        dns,
        {
          smtp: deps.smtp,
          reachable,
          party: { operator, caller: options.caller, interactive: options.interactive === true },
          signal: probeDeadline.signal,
        },
        probedRecords,
      ),
      // The reverse zones are asked directly, as the IP check asks them: the bounded resolver
      // answers every name under .arpa NXDOMAIN unasked, and the sample bounds these queries.
      sampleSenders(deps.resolver, deps.dnsbl, spfSenders.ips, deadline),
      checkBimi(dns, name, dmarcAsked),
      tlsRptAsked,
      mtaStsAsked,
      checkDane(deps.tlsa, probedHosts, deadline.signal),
      domainListsAsked,
    ]);
    // Inferred selectors first in the list: they say which provider the domain uses.
    const inferredNames = new Set(inferred.map((tried) => tried.selector));
    const reordered = [
      ...dkimLooked.filter((looked) => looked.source === 'caller'),
      ...dkimMore,
      ...dkimLooked.filter(
        (looked) => looked.source !== 'caller' && !inferredNames.has(looked.selector),
      ),
    ];
    const dkim = dkimResult(reordered);
    const tlsRpt =
      tlsRptOutcome.status === 'answer' ||
      tlsRptOutcome.status === 'nxdomain' ||
      tlsRptOutcome.status === 'nodata'
        ? readTlsRpt(tlsRptOutcome.status === 'answer' ? tlsRptOutcome.records : [])
        : {
            status: 'unavailable' as const,
            record: null,
            rua: [],
            detail: `no usable DNS answer (${tlsRptOutcome.status})`,
          };

    const findings = findingsOf({
      domain: name,
      spf: senders.spf,
      dkim,
      callerSelectors: caller.length > 0,
      dmarc,
      senders: sample,
      sendersTotal: spfSenders.ipsTotal,
      mx: hosts,
    });
    const requirements = judgeRequirements(findings);
    const unauthorisedReports = [...dmarc.rua, ...dmarc.ruf].filter(
      (d) => d.authorized === false,
    ).length;
    const notes: string[] = [];
    if (port25MayBeBlocked(hosts)) {
      notes.push(
        'No MX host answered at the connection stage: port 25 may be blocked from this server, so the SMTP results say little about the domain.',
      );
    }
    if (namedRecords.length > hosts.length) {
      notes.push(`Probed the ${hosts.length} most preferred of ${namedRecords.length} MX hosts.`);
    }
    if (hosts.some((host) => serviceLimitOf(host.smtp) === capacityShortage)) {
      notes.push(
        'Some MX hosts were not probed: the service’s probe capacity was in use. This says nothing about them; check again shortly.',
      );
    }
    if (hosts.some((host) => serviceLimitOf(host.smtp) === destinationBound)) {
      notes.push(
        'Some MX hosts were not probed: the service’s bound on probes to their address or network was reached. This says nothing about them; check again later.',
      );
    }
    const unnamed = nullMx ? 0 : mxRecords.length - namedRecords.length;
    if (unnamed > 0) {
      notes.push(
        `${unnamed} MX record${unnamed === 1 ? ' names' : 's name'} no host name (RFC 5321 §2.3.5): neither probed nor shown.`,
      );
    }
    if (spfSenders.ipsTotal > sample.length && sample.length > 0) {
      notes.push(
        `Reverse DNS and listings of ${sample.length} of ${spfSenders.ipsTotal} SPF sender addresses.`,
      );
    }
    if (options.listsUnavailable !== undefined) {
      notes.push(
        `No blocklist was asked about the sender addresses: the blocklists are not ready (${options.listsUnavailable}).`,
      );
    }
    if (dns.exhausted) {
      notes.push(
        `Stopped after ${mailQueryBudget} DNS queries; what was left is reported as not answered.`,
      );
    }
    const domainLists = domainListCounts(domainReport);
    const mailScore = mailScoreOf({
      findings,
      requirements,
      dmarcPolicy: dmarc.policy,
      mx: hosts,
      mtaSts,
      tlsRpt,
      bimi,
      unauthorisedReports,
      domain: name,
      domainLists,
    });
    const result: MailCheckResult = {
      domain: name,
      ...(domain.display !== name ? { display: domain.display } : {}),
      fixes: fixesOf({
        domain: name,
        findings,
        requirements,
        score: mailScore,
        dmarc,
        dmarcReading: senders.dmarcReading,
        spf: senders.spf,
        dkim,
        providers: providersSeen(table, {
          mxHosts: probedRecords.map((record) => record.exchange),
          spfDomains: senders.spf.domains,
        }),
        senders: sample,
        mx: hosts,
        mtaSts,
        tlsRpt,
        bimi,
        domainLists,
      }),
      spf: spfSummary(senders.spf),
      dkim,
      dmarc,
      bimi,
      null_mx: nullMx,
      implicit_mx: implicitMx,
      mx_total: mxRecords.length,
      mx: hosts,
      mta_sts: mtaSts,
      tls_rpt: tlsRpt,
      dane,
      requirements,
      inbound_tls: inboundTlsRule(findings.inbound_tls),
      domain_lists: domainLists,
      mail_score: mailScore,
      notes,
      checked_at: deps.now().toISOString(),
    };
    return { ok: true, result };
  } finally {
    deadline.clear();
    probeDeadline.clear();
  }
}
