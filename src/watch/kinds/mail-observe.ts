import { cleanThirdPartyText } from '../../lib/index.js';
import {
  isCapacityShortage,
  type MailCheckResult,
  mailProviders,
  providerRequirements,
  type RequirementRule,
  type RequirementStatus,
  verdictOf,
} from '../../reputation/index.js';
import { type Fact, factId, type MailFact } from './facts.js';
import type { Observation } from './merge.js';

/**
 * What one mail check of a watched domain showed (docs/watches.md, "Mail watches"), as facts a
 * change can compare: each requirement rule's status, each MX host's certificate (valid, expiring
 * under 14 days, expired), the MTA-STS status, each DKIM selector's key. The providers' verdicts
 * are not read from the result: they are judged again over the rules the watch knows
 * (`verdictsOver`). What the check could not see because something did not answer (a probe that
 * timed out, DNS that did not answer) is left out, as a list that did not answer is: it keeps
 * what was known. An MX host the domain no longer has (while it has others) takes its certificate
 * with it.
 */

/** Fewer days left than this: the certificate is expiring (and the watch says so once). */
export const expiringUnderDays = 14;

/**
 * Rule details that say a look-up failed rather than what the domain publishes: an SPF
 * temperror (RFC 7208 §2.6.6), reverse DNS or lists that did not answer, a record that could not
 * be read (src/reputation/mail/requirement-rules.ts words them).
 */
const failedLookup =
  /temperror|did not answer|no list answered|could not be read|no usable DNS answer/i;

/**
 * An MTA-STS `error` that is a look-up giving up, not a policy host that answered badly: the TXT
 * record's DNS, the check's deadline, the fetch's own time bound (src/node/probes/policy-fetch.ts,
 * src/workers/probes/policy-fetch.ts word them).
 */
const mtaStsSilence = /no usable DNS answer|deadline passed|no whole answer within/;

/** A mail check: its mail facts, and its mail score as the status (docs/watches.md). */
export function observeMailCheck(result: MailCheckResult): Observation {
  // One fact per key, the last heard, as one check hears each thing once.
  const facts = new Map<string, MailFact>();
  const add = (fact: MailFact) => facts.set(factId(fact), fact);
  // A probe not made for the service's capacity is silence too, as a timeout is.
  const probeTimedOut = result.mx.some(
    (host) => host.smtp.status === 'timeout' || isCapacityShortage(host.smtp),
  );
  // A named selector whose look-up failed reads as no key to the dkim and alignment rules.
  const dkimFailed = result.dkim.selectors.some(
    (selector) => selector.status === 'none' && selector.detail !== null,
  );
  // A rule's finding is the same for every provider: the first provider that has the rule says it.
  const rules = new Map<string, RequirementRule>();
  for (const provider of mailProviders) {
    for (const rule of result.requirements[provider].rules) {
      if (!rules.has(rule.rule)) rules.set(rule.rule, rule);
    }
  }
  // The MX servers' STARTTLS, a rule no provider requires (absent from results made before it).
  if (result.inbound_tls) rules.set('inbound_tls', result.inbound_tls);
  for (const rule of rules.values()) {
    // An unknown rule cannot be seen from outside (or had nothing to judge): no fact either way.
    if (rule.status === 'unknown' || lookupFailed(rule, result, { probeTimedOut, dkimFailed }))
      continue;
    add({ what: 'requirement', subject: rule.rule, value: rule.status, detail: rule.detail });
  }
  for (const host of result.mx) {
    const certificate = host.smtp.status === 'ok' ? host.smtp.certificate : null;
    if (!certificate) {
      // A handshake Node refused for an expired certificate reads no dates, but says so.
      if (host.smtp.status === 'ok' && /CERT_HAS_EXPIRED/.test(host.smtp.detail ?? '')) {
        add({
          what: 'certificate',
          subject: host.host,
          value: 'expired',
          detail: host.smtp.detail,
        });
      }
      continue;
    }
    const daysLeft = certificate.days_left;
    add({
      what: 'certificate',
      subject: host.host,
      value: daysLeft < 0 ? 'expired' : daysLeft < expiringUnderDays ? 'expiring' : 'valid',
      detail: `${daysLeft} days left (not after ${certificate.not_after})`,
      not_after: certificate.not_after,
    });
  }
  const sts = result.mta_sts;
  if (!(sts.status === 'error' && mtaStsSilence.test(sts.detail ?? ''))) {
    add({ what: 'mta_sts', subject: result.domain, value: sts.status, detail: sts.detail });
  }
  for (const selector of result.dkim.selectors) {
    // A selector whose look-up failed said nothing (src/reputation/mail/dkim-check.ts).
    if (selector.status === 'none' && selector.detail !== null) continue;
    add({
      what: 'dkim',
      subject: selector.selector,
      value: selector.status,
      detail: selector.detail ?? selector.warning,
    });
  }
  const found = result.dkim.selectors.filter((selector) => selector.status === 'found');
  // No MX host at all is more often an MX look-up that failed than a domain that dropped its
  // mail servers: then every certificate is kept.
  // As the facts' subjects are kept: cleaned (third-party.ts), so a host keeps its certificate.
  const hosts = new Set(result.mx.map((host) => cleanThirdPartyText(host.host)));
  const { mail_score: score } = result;
  return {
    facts: [...facts.values()],
    gone: (key) => key.what === 'certificate' && hosts.size > 0 && !hosts.has(key.subject),
    derive: verdictsOver,
    reportsChanges: true,
    status: {
      verdict: score.verdict,
      score: score.score,
      listed_on: [],
      lists: [],
      mail: {
        providers: {
          gmail: result.requirements.gmail.verdict,
          yahoo: result.requirements.yahoo.verdict,
          microsoft: result.requirements.microsoft.verdict,
        },
        dkim_selectors: found.map((selector) => selector.selector),
        mta_sts: sts.status,
        unseen: {
          gmail: result.requirements.gmail.unseen ?? 0,
          yahoo: result.requirements.yahoo.unseen ?? 0,
          microsoft: result.requirements.microsoft.unseen ?? 0,
        },
      },
    },
  };
}

/**
 * Each provider's verdict as the check judges it (`verdictOf`, src/reputation/mail/), over the
 * rule statuses the watch knows rather than those one check heard: a rule left silent keeps its
 * last status here too, so a timeout never moves a verdict, and a verdict moves only with a
 * confirmed rule. A provider none of whose rules is known has no verdict yet.
 */
function verdictsOver(known: readonly Fact[]): MailFact[] {
  const rules = new Map(
    known.flatMap((fact) => (fact.what === 'requirement' ? [[fact.subject, fact.value]] : [])),
  );
  return mailProviders.flatMap((provider): MailFact[] => {
    const statuses = providerRequirements[provider].rules.flatMap(({ rule, required }) => {
      const status = rules.get(rule);
      return status === undefined ? [] : [{ status: status as RequirementStatus, required }];
    });
    if (statuses.length === 0) return [];
    return [{ what: 'verdict', subject: provider, value: verdictOf(statuses), detail: null }];
  });
}

/**
 * A rule the check could not judge this time because something did not answer: a detail that
 * says a look-up failed, the SPF or DMARC record unreadable, the dkim and alignment rules while a
 * DKIM look-up failed, or the inbound_tls rule while an MX probe timed out (a timeout is not a server
 * without STARTTLS; a refused connection or a failed handshake is an answer).
 */
function lookupFailed(
  rule: RequirementRule,
  result: MailCheckResult,
  failures: { probeTimedOut: boolean; dkimFailed: boolean },
) {
  if (rule.rule === 'inbound_tls') return failures.probeTimedOut;
  if (failedLookup.test(rule.detail)) return true;
  if ((rule.rule === 'dkim' || rule.rule === 'alignment') && failures.dkimFailed) return true;
  if (rule.rule === 'spf' && result.spf.status === 'unavailable') return true;
  if ((rule.rule === 'dmarc' || rule.rule === 'alignment') && result.dmarc.status === 'unavailable')
    return true;
  return false;
}
