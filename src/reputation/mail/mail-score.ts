import type {
  Bimi,
  MailMxHost,
  MailScore,
  MailScoreFactor,
  MtaSts,
  Requirements,
  RequirementRuleId,
  TlsRpt,
} from '../results/index.js';
import type { Finding } from './requirement-rules.js';

/**
 * The mail score: 100 less what each finding costs, weighed by what it does to delivery (a
 * missing SPF, DKIM or DMARC gets mail refused by the large providers; a missing TLS-RPT only
 * leaves the owner blind). Verdict: poor under 50 or when a provider's verdict is fail, good
 * from 80, fair between (docs/mail.md has the table).
 */

/** What a failed (and, half of it, a warned) requirement rule costs. */
const ruleCost: Record<RequirementRuleId, number> = {
  spf: 20,
  dkim: 20,
  dmarc: 20,
  alignment: 10,
  ptr: 10,
  tls: 10,
  listing: 20,
  spam_rate: 0,
  one_click_unsubscribe: 0,
  message_format: 0,
};

export interface ScoredParts {
  findings: Record<RequirementRuleId, Finding>;
  requirements: Requirements;
  dmarcPolicy: string | null;
  mx: readonly MailMxHost[];
  mtaSts: MtaSts;
  tlsRpt: TlsRpt;
  bimi: Bimi;
  unauthorisedReports: number;
}

export function mailScoreOf(parts: ScoredParts): MailScore {
  const factors: MailScoreFactor[] = [];
  for (const [rule, finding] of Object.entries(parts.findings) as [RequirementRuleId, Finding][]) {
    const cost =
      finding.status === 'fail'
        ? ruleCost[rule]
        : finding.status === 'warn'
          ? ruleCost[rule] / 2
          : 0;
    if (cost > 0) {
      factors.push({
        code: `${rule}_${finding.status}`,
        source: rule,
        detail: finding.detail,
        points: -cost,
      });
    }
  }
  if (parts.dmarcPolicy === 'none') {
    factors.push({
      code: 'dmarc_not_enforced',
      source: 'dmarc',
      detail:
        'DMARC p=none: forged mail is delivered as before; quarantine or reject protects the domain',
      points: -5,
    });
  }
  const badCertificates = parts.mx.filter(
    (host) =>
      host.smtp.status === 'ok' &&
      // None: the server sent none, or Node's verification ended the handshake before its names.
      (!host.smtp.certificate ||
        !host.smtp.certificate.trusted ||
        !host.smtp.certificate.name_matches),
  );
  if (badCertificates.length > 0) {
    factors.push({
      code: 'mx_certificate',
      source: 'tls',
      detail: `a certificate that does not verify for its host on ${badCertificates.map((host) => host.host).join(', ')}`,
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
  factors.sort((a, b) => a.points - b.points);
  const score = Math.max(0, 100 + factors.reduce((sum, factor) => sum + factor.points, 0));
  const failed = [
    parts.requirements.gmail,
    parts.requirements.yahoo,
    parts.requirements.microsoft,
  ].some((provider) => provider.verdict === 'fail');
  const verdict = score < 50 || failed ? 'poor' : score >= 80 ? 'good' : 'fair';
  return { score, verdict, factors };
}
