import type { DmarcReading } from '../checks/index.js';
import {
  type Bimi,
  type Dkim,
  type FixRecord,
  type MailDmarc,
  type MailDomainLists,
  type MailFix,
  type MailMxHost,
  mailProviders,
  type MailScore,
  maxMailFixes,
  type MtaSts,
  type RequirementRuleId,
  type Requirements,
  type TlsRpt,
} from '../results/index.js';
import type { SeenProvider } from './dkim-selectors.js';
import {
  dmarcRecordFor,
  reportAuthorizationFor,
  spfRecordFor,
  tlsRptRecordFor,
} from './fix-records.js';
import type { Finding, SampledSender } from './requirement-rules.js';
import { unverifiedCertificates } from './transport-rules.js';

/**
 * What to fix first: each change the findings call for, with the provider rules it would turn
 * from fail or warn to met (`moves`) and the points it would win back; the few that move the
 * most, in that order. Where a record is the fix, the exact record for this domain, built from
 * what was found (fix-records.ts); else the one sentence of what to do.
 */

export interface FixFacts {
  domain: string;
  findings: Record<RequirementRuleId, Finding>;
  requirements: Requirements;
  score: MailScore;
  dmarc: MailDmarc;
  dmarcReading: DmarcReading | null;
  spf: { status: string; error?: { kind: string; reason: string } | undefined };
  dkim: Dkim;
  /** The mail providers the MX hosts and SPF includes show (assets/dkim-selectors.json). */
  providers: readonly SeenProvider[];
  senders: readonly SampledSender[];
  mx: readonly MailMxHost[];
  mtaSts: MtaSts;
  tlsRpt: TlsRpt;
  bimi: Bimi;
  domainLists: MailDomainLists;
}

interface Candidate {
  code: string;
  rules: RequirementRuleId[];
  record: FixRecord | null;
  detail: string;
  subject: string | null;
  /** The score factors it removes. */
  factors: string[];
}

const failing = (finding: Finding) => finding.status === 'fail' || finding.status === 'warn';

function dmarcFixes(facts: FixFacts): Candidate[] {
  const { dmarc, findings } = facts;
  // The record that applies is fixed where it is: the organisational domain's, when it is that one.
  const at = dmarc.domain ?? facts.domain;
  if (failing(findings.dmarc)) {
    const rules: RequirementRuleId[] = ['dmarc'];
    if (failing(findings.alignment) && facts.dkim.status === 'found') rules.push('alignment');
    const detail =
      dmarc.status === 'multiple'
        ? `Keep one v=DMARC1 record at _dmarc.${at}: with several, receivers apply none (RFC 7489 §6.6.3).`
        : dmarc.status === 'invalid'
          ? `Replace the DMARC record at _dmarc.${at}, which receivers do not apply (${dmarc.errors.join('; ')}), with this one.`
          : `Publish a DMARC policy at _dmarc.${at}; p=none is enough for the providers, and its reports show who sends as the domain.`;
    return [
      {
        code: 'publish_dmarc',
        rules,
        record: dmarcRecordFor(at, facts.dmarcReading),
        detail,
        subject: `_dmarc.${at}`,
        factors: ['dmarc_fail', 'dmarc_warn', 'alignment_fail'],
      },
    ];
  }
  if (dmarc.policy === 'none') {
    return [
      {
        code: 'enforce_dmarc',
        rules: [],
        record: dmarcRecordFor(at, facts.dmarcReading, 'quarantine'),
        detail: `Once the DMARC reports show every sender aligned, move _dmarc.${at} to p=quarantine: forged mail then goes to spam.`,
        subject: `_dmarc.${at}`,
        factors: ['dmarc_not_enforced'],
      },
    ];
  }
  return [];
}

function spfFixes(facts: FixFacts): Candidate[] {
  if (!failing(facts.findings.spf)) return [];
  const base = { code: 'fix_spf', rules: ['spf'] as RequirementRuleId[], subject: facts.domain };
  const factors = ['spf_fail', 'spf_warn'];
  if (facts.spf.status === 'none') {
    const includes = facts.providers.flatMap((provider) => provider.spf.slice(0, 1));
    return [
      {
        ...base,
        record: spfRecordFor(facts.domain, includes),
        detail: `Publish an SPF record at ${facts.domain} naming every server and service that sends its mail${includes.length > 0 ? '' : ' (the MX hosts are a start)'}, then tighten ~all to -all.`,
        factors,
      },
    ];
  }
  const detail =
    facts.spf.status === 'multiple'
      ? `Merge the SPF records at ${facts.domain} into one: with several, receivers fail SPF (RFC 7208 §4.5).`
      : `Fix the SPF record at ${facts.domain}: ${facts.spf.error?.reason ?? facts.findings.spf.detail}.`;
  return [{ ...base, record: null, detail, factors }];
}

function dkimFixes(facts: FixFacts): Candidate[] {
  const { findings, dkim } = facts;
  if (failing(findings.dkim)) {
    const provider = facts.providers[0];
    const selector = provider?.selectors[0];
    const rules: RequirementRuleId[] = ['dkim'];
    if (failing(findings.alignment) && facts.dmarc.policy !== null) rules.push('alignment');
    const detail = provider
      ? `Turn on DKIM signing in ${provider.provider} and publish the key it gives at ${selector}._domainkey.${facts.domain}; if your key is under another selector, enter it in the DKIM selector field and check again.`
      : `Turn on DKIM signing where your mail is sent from and publish its key at <selector>._domainkey.${facts.domain}; if a key is published already, enter its selector in the DKIM selector field and check again.`;
    return [
      {
        code: 'enable_dkim',
        rules,
        record: null,
        detail,
        subject: selector ? `${selector}._domainkey.${facts.domain}` : null,
        factors: ['dkim_fail', 'dkim_warn', 'alignment_fail', 'alignment_warn'],
      },
    ];
  }
  const weak = dkim.selectors.filter((key) => key.status === 'found' && key.warning !== null);
  if (
    weak.length > 0 &&
    weak.length === dkim.selectors.filter((k) => k.status === 'found').length
  ) {
    const names = weak.map((key) => key.selector).join(', ');
    return [
      {
        code: 'strengthen_dkim',
        rules: [],
        record: null,
        detail: `Replace the ${weak[0]!.key_bits}-bit RSA key at ${names} with a 2048-bit one (RFC 8301 §3.2); receivers still accept it, so nothing is refused meanwhile.`,
        subject: names,
        factors: [],
      },
    ];
  }
  return [];
}

function senderFixes(facts: FixFacts): Candidate[] {
  const candidates: Candidate[] = [];
  if (facts.findings.ptr.status === 'fail') {
    const ips = facts.senders
      .filter((sender) => sender.rdns.fcrdns === 'none' || sender.rdns.fcrdns === 'fail')
      .map((sender) => sender.ip);
    const who = ips.length > 0 ? ips.join(', ') : 'each sending address';
    candidates.push({
      code: 'fix_ptr',
      rules: ['ptr'],
      record: null,
      detail: `Ask whoever runs ${who} (the hosting or network provider) to set its reverse DNS (PTR) to a host name that resolves back to it.`,
      subject: ips.length > 0 ? ips.join(', ') : null,
      factors: ['ptr_fail'],
    });
  }
  if (facts.findings.listing.status === 'fail') {
    const listed = facts.senders.filter((sender) => sender.listing.listed > 0);
    const lists = [...new Set(listed.flatMap((s) => s.listing.listings.map((l) => l.name)))];
    candidates.push({
      code: 'delist_sender',
      rules: ['listing'],
      record: null,
      detail:
        listed.length > 0
          ? `Stop what got ${listed.map((s) => s.ip).join(', ')} listed, then ask ${lists.join(', ')} for removal, each on its own page.`
          : `Stop what got the sending addresses listed, then ask each list for removal: ${facts.findings.listing.detail}.`,
      subject: lists.length > 0 ? lists.join(', ') : null,
      factors: ['listing_fail'],
    });
  }
  const domainListed = facts.domainLists.lists.filter((list) => list.status === 'listed');
  for (const list of domainListed) {
    candidates.push({
      code: 'delist_domain',
      rules: [],
      record: null,
      detail: `${facts.domain} is on ${list.name}: stop what got it listed, then ask for removal${list.delist_url ? ` at ${list.delist_url}` : ''}.`,
      subject: list.name,
      factors: ['domain_listed', 'domain_on_major_list'],
    });
  }
  return candidates;
}

function transportFixes(facts: FixFacts): Candidate[] {
  const candidates: Candidate[] = [];
  const plain = facts.mx.filter((host) => host.smtp.status === 'no_starttls').map((h) => h.host);
  if (plain.length > 0) {
    candidates.push({
      code: 'inbound_starttls',
      rules: ['inbound_tls'],
      record: null,
      detail: `Turn on STARTTLS on ${plain.join(', ')} with a certificate valid for ${plain.length === 1 ? 'its name' : 'their names'} (RFC 3207): mail to ${plain.length === 1 ? 'it' : 'them'} travels unencrypted.`,
      subject: plain.join(', '),
      factors: ['inbound_tls_fail'],
    });
  }
  const unverified = unverifiedCertificates(facts.mx);
  if (unverified.length > 0) {
    candidates.push({
      code: 'mx_certificate',
      rules: [],
      record: null,
      detail: `Install a certificate from a CA senders trust, valid for the host name, on ${unverified.map((u) => `${u.host} (${u.reason})`).join('; ')}.`,
      subject: unverified.map((u) => u.host).join(', '),
      factors: ['mx_certificate'],
    });
  }
  if (
    facts.mtaSts.status === 'invalid' ||
    facts.mtaSts.status === 'error' ||
    facts.mtaSts.mx_covered === false
  ) {
    candidates.push({
      code: 'fix_mta_sts',
      rules: [],
      record: null,
      detail: `Fix MTA-STS for ${facts.domain}: ${facts.mtaSts.detail ?? facts.mtaSts.status}.`,
      subject: `mta-sts.${facts.domain}`,
      factors: ['mta_sts_invalid', 'mta_sts_error', 'mta_sts_mx_uncovered'],
    });
  }
  if (facts.tlsRpt.status === 'invalid') {
    candidates.push({
      code: 'fix_tls_rpt',
      rules: [],
      record: tlsRptRecordFor(facts.domain, facts.tlsRpt),
      detail: `Replace the TLS-RPT record, which senders ignore (${facts.tlsRpt.detail ?? 'invalid'}), with this one.`,
      subject: `_smtp._tls.${facts.domain}`,
      factors: ['tls_rpt_invalid'],
    });
  }
  return candidates;
}

function reportFixes(facts: FixFacts): Candidate[] {
  const policyDomain = facts.dmarc.domain ?? facts.domain;
  const candidates: Candidate[] = [...facts.dmarc.rua, ...facts.dmarc.ruf]
    .filter((destination) => destination.authorized === false)
    .slice(0, 1)
    .map((destination) => ({
      code: 'authorize_reports',
      rules: [],
      record: reportAuthorizationFor(policyDomain, destination.domain),
      detail: `Ask ${destination.domain} to publish this record, or it receives none of the DMARC reports (RFC 7489 §7.1).`,
      subject: destination.domain,
      factors: ['dmarc_reports_unauthorised'],
    }));
  if (facts.bimi.status === 'invalid') {
    candidates.push({
      code: 'fix_bimi',
      rules: [],
      record: null,
      detail: `Fix the BIMI record at default._bimi.${facts.domain}: ${facts.bimi.detail ?? 'invalid'}.`,
      subject: `default._bimi.${facts.domain}`,
      factors: ['bimi_invalid'],
    });
  }
  return candidates;
}

/** Provider rules a fix turns from fail or warn to met. */
function movesOf(rules: readonly RequirementRuleId[], requirements: Requirements): number {
  return mailProviders.reduce(
    (sum, provider) =>
      sum +
      requirements[provider].rules.filter(
        (rule) => rules.includes(rule.rule) && (rule.status === 'fail' || rule.status === 'warn'),
      ).length,
    0,
  );
}

export function fixesOf(facts: FixFacts): MailFix[] {
  const candidates = [
    ...dmarcFixes(facts),
    ...spfFixes(facts),
    ...dkimFixes(facts),
    ...senderFixes(facts),
    ...transportFixes(facts),
    ...reportFixes(facts),
  ];
  const weighed = candidates.map((candidate, index) => ({
    candidate,
    index,
    moves: movesOf(candidate.rules, facts.requirements),
    points: facts.score.factors
      .filter((factor) => candidate.factors.includes(factor.code))
      .reduce((sum, factor) => sum - factor.points, 0),
  }));
  weighed.sort((a, b) => b.moves - a.moves || b.points - a.points || a.index - b.index);
  return weighed
    .slice(0, maxMailFixes)
    .map(({ candidate: { factors: _factors, ...fix }, moves }) => ({ ...fix, moves }));
}
