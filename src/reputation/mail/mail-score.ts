import type {
  Bimi,
  MailDomainLists,
  MailMxHost,
  MailScore,
  MailScoreFactor,
  MtaSts,
  Requirements,
  RequirementRuleId,
  TlsRpt,
} from '../results/index.js';
import { mailProviders } from '../results/index.js';
import type { Finding } from './requirement-rules.js';
import { unverifiedCertificates } from './transport-rules.js';

/**
 * The mail score: 100 less what each finding costs, weighed by what it does to delivery (a
 * missing SPF, DKIM or DMARC gets mail refused by the large providers; a missing TLS-RPT only
 * leaves the owner blind). The verdict is the score's (poor under 50, good from 80, fair
 * between), so the verdict, the score and their colour agree wherever they are shown; a
 * provider's fail, or the domain on a major domain list, holds the score under 50, and a factor
 * says why (docs/mail.md has the table).
 */

/** What a failed (and, half of it, a warned) rule costs; ready and unknown cost nothing. */
const ruleCost: Record<RequirementRuleId, number> = {
  spf: 20,
  dkim: 20,
  dmarc: 20,
  alignment: 10,
  ptr: 10,
  tls: 0,
  listing: 20,
  spam_rate: 0,
  one_click_unsubscribe: 0,
  message_format: 0,
  inbound_tls: 10,
};

/** The highest score a domain may have while receivers refuse its mail. */
export const heldScore = 49;

export interface ScoredParts {
  findings: Record<RequirementRuleId, Finding>;
  requirements: Requirements;
  dmarcPolicy: string | null;
  mx: readonly MailMxHost[];
  mtaSts: MtaSts;
  tlsRpt: TlsRpt;
  bimi: Bimi;
  unauthorisedReports: number;
  domain: string;
  domainLists: MailDomainLists;
}

function ruleFactors(findings: ScoredParts['findings']): MailScoreFactor[] {
  return (Object.entries(findings) as [RequirementRuleId, Finding][]).flatMap(([rule, finding]) => {
    const cost =
      finding.status === 'fail'
        ? ruleCost[rule]
        : finding.status === 'warn'
          ? ruleCost[rule] / 2
          : 0;
    return cost > 0
      ? [{ code: `${rule}_${finding.status}`, source: rule, detail: finding.detail, points: -cost }]
      : [];
  });
}

/** The domain itself on a domain list: what its heaviest listing weighs, as the domain tool counts it. */
function domainListFactors(parts: ScoredParts): MailScoreFactor[] {
  return parts.domainLists.lists.flatMap((list) => {
    if (list.status !== 'listed' || !list.listings || list.listings.length === 0) return [];
    const heaviest = list.listings.reduce((a, b) => (b.weight > a.weight ? b : a));
    return [
      {
        code: 'domain_listed',
        source: list.name,
        detail: `${parts.domain} is on ${list.name}: ${list.listings.map((l) => l.meaning).join('; ')}`,
        points: -heaviest.weight,
      },
    ];
  });
}

function transportFactors(parts: ScoredParts): MailScoreFactor[] {
  const factors: MailScoreFactor[] = [];
  const unverified = unverifiedCertificates(parts.mx);
  if (unverified.length > 0) {
    factors.push({
      code: 'mx_certificate',
      source: 'inbound_tls',
      detail: `a certificate that does not verify: ${unverified.map((each) => `${each.host}: ${each.reason}`).join('; ')}`,
      points: -5,
    });
  }
  if (parts.mtaSts.status === 'invalid' || parts.mtaSts.status === 'error') {
    factors.push({
      code: `mta_sts_${parts.mtaSts.status}`,
      source: 'mta_sts',
      detail: parts.mtaSts.detail ?? 'MTA-STS',
      points: -5,
    });
  } else if (parts.mtaSts.mx_covered === false) {
    factors.push({
      code: 'mta_sts_mx_uncovered',
      source: 'mta_sts',
      detail: `MX hosts the MTA-STS policy does not cover: ${parts.mtaSts.uncovered.join(', ')}`,
      points: -5,
    });
  }
  if (parts.tlsRpt.status === 'invalid') {
    factors.push({
      code: 'tls_rpt_invalid',
      source: 'tls_rpt',
      detail: parts.tlsRpt.detail ?? 'TLS-RPT',
      points: -2,
    });
  }
  return factors;
}

function recordFactors(parts: ScoredParts): MailScoreFactor[] {
  const factors: MailScoreFactor[] = [];
  if (parts.dmarcPolicy === 'none') {
    factors.push({
      code: 'dmarc_not_enforced',
      source: 'dmarc',
      detail:
        'DMARC p=none: forged mail is delivered as before; quarantine or reject protects the domain',
      points: -5,
    });
  }
  if (parts.bimi.status === 'invalid') {
    factors.push({
      code: 'bimi_invalid',
      source: 'bimi',
      detail: parts.bimi.detail ?? 'BIMI',
      points: -2,
    });
  }
  if (parts.unauthorisedReports > 0) {
    factors.push({
      code: 'dmarc_reports_unauthorised',
      source: 'dmarc',
      detail: `${parts.unauthorisedReports} external report address(es) not authorised (RFC 7489 §7.1): reports are not sent there`,
      points: -3,
    });
  }
  return factors;
}

/** Why the score is held under 50, when it is: a provider refuses, or a major list names the domain. */
function holdReason(parts: ScoredParts): Omit<MailScoreFactor, 'points'> | undefined {
  const failed = mailProviders.filter(
    (provider) => parts.requirements[provider].verdict === 'fail',
  );
  if (failed.length > 0) {
    return {
      code: 'provider_rules_not_met',
      source: 'requirements',
      detail: `a rule ${failed.join(', ')} require${failed.length === 1 ? 's' : ''} fails: mail there may be refused, so the score is held under 50`,
    };
  }
  const major = parts.domainLists.lists.find(
    (list) => list.status === 'listed' && list.severity === 'major',
  );
  if (major) {
    return {
      code: 'domain_on_major_list',
      source: major.name,
      detail: `${parts.domain} is on ${major.name}, which receivers use to refuse mail naming it: the score is held under 50`,
    };
  }
  return undefined;
}

export function mailScoreOf(parts: ScoredParts): MailScore {
  const factors = [
    ...ruleFactors(parts.findings),
    ...domainListFactors(parts),
    ...transportFactors(parts),
    ...recordFactors(parts),
  ];
  let score = Math.max(0, 100 + factors.reduce((sum, factor) => sum + factor.points, 0));
  const hold = holdReason(parts);
  if (hold && score > heldScore) {
    factors.push({ ...hold, points: heldScore - score });
    score = heldScore;
  }
  factors.sort((a, b) => a.points - b.points);
  const verdict = score < 50 ? 'poor' : score >= 80 ? 'good' : 'fair';
  return { score, verdict, factors };
}
