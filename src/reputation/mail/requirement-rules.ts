import type {
  AddressSummary,
  Dkim,
  MailDmarc,
  MailMxHost,
  ProviderVerdict,
  RequirementRule,
  RequirementRuleId,
  RequirementStatus,
  Requirements,
  ReverseDns,
  SpfSummary,
} from '../results/index.js';
import { mailProviders } from '../results/index.js';
import { ptrBreak } from '../checks/index.js';
import { providerRequirements, requirementsScope } from './provider-requirements.js';
import { inboundTlsFinding, tlsFinding } from './transport-rules.js';

/**
 * The requirement rules judged on what DNS and the MX servers show, each on the side it is about:
 * one finding per rule, the same for every provider, then each provider's table
 * (provider-requirements.ts) says which it requires, and its verdict follows (docs/mail.md).
 */

export interface Finding {
  status: RequirementStatus;
  detail: string;
}

/** A sender address sampled for the ptr and listing rules. */
export interface SampledSender {
  ip: string;
  rdns: ReverseDns;
  listing: AddressSummary;
}

export interface MailFacts {
  /** The checked domain: the d= its own signatures carry. */
  domain: string;
  spf: Pick<SpfSummary, 'status' | 'error'>;
  dkim: Dkim;
  /** Whether the caller named selectors: a miss at a named selector is a fact, a miss at a guess is not. */
  callerSelectors: boolean;
  dmarc: MailDmarc;
  senders: readonly SampledSender[];
  /** Single sender addresses the SPF record authorises, of which `senders` is a sample. */
  sendersTotal: number;
  mx: readonly MailMxHost[];
}

export function spfFinding(spf: MailFacts['spf']): Finding {
  if (spf.status === 'none') return { status: 'fail', detail: 'no SPF record (RFC 7208)' };
  if (spf.status === 'multiple') {
    return { status: 'fail', detail: 'several SPF records: a permerror (RFC 7208 §4.5)' };
  }
  if (spf.status === 'unavailable')
    return { status: 'unknown', detail: 'the SPF record could not be read (DNS)' };
  if (spf.error?.kind === 'permerror')
    return { status: 'fail', detail: `SPF permerror: ${spf.error.reason}` };
  if (spf.error?.kind === 'temperror') {
    return { status: 'warn', detail: `SPF temperror: ${spf.error.reason}` };
  }
  return { status: 'pass', detail: 'an SPF record that evaluates without error' };
}

/** "a 2048-bit RSA key at google, an Ed25519 key at ed" */
function keysShown(selectors: Dkim['selectors']): string {
  return selectors
    .map((key) => {
      const kind = key.key_type === 'ed25519' ? 'an Ed25519 key' : `a ${key.key_bits}-bit RSA key`;
      return `${kind} at ${key.selector}`;
    })
    .join(', ');
}

/**
 * What DNS shows of DKIM: a published key is what the rule needs from DNS, and `ready` says so;
 * whether the messages are signed with it cannot be seen from outside, so it is no `pass`. An
 * RSA key of 1024 bits meets Gmail's and Yahoo's rule (RFC 8301 §3.2: verifiers accept it): the
 * advice to use 2048 is in the detail and the fixes, not a lower status.
 */
export function dkimFinding(dkim: Dkim, callerSelectors: boolean): Finding {
  const found = dkim.selectors.filter((selector) => selector.status === 'found');
  if (found.length > 0) {
    const weak = found.filter((selector) => selector.warning !== null);
    const advice =
      weak.length === found.length ? '; 2048-bit RSA keys are advised (RFC 8301 §3.2)' : '';
    return {
      status: 'ready',
      detail: `${keysShown(found)} ${found.length === 1 ? 'is' : 'are'} published; signatures are not visible from outside${advice}`,
    };
  }
  if (dkim.status === 'invalid') {
    return {
      status: 'fail',
      detail: 'DKIM key records were found, none usable (revoked, invalid or under 1024 bits)',
    };
  }
  if (callerSelectors) {
    return {
      status: 'fail',
      detail: `no DKIM key at the ${dkim.tried.length} selectors tried, the named ones among them`,
    };
  }
  return {
    status: 'warn',
    detail: `no DKIM key at the ${dkim.tried.length} common selectors tried: DNS cannot list selectors, name yours (dkim_selectors)`,
  };
}

export function dmarcFinding(dmarc: MailDmarc): Finding {
  if (dmarc.status === 'unavailable')
    return { status: 'unknown', detail: 'the DMARC record could not be read (DNS)' };
  if (dmarc.status === 'multiple') {
    return { status: 'fail', detail: 'several DMARC records: none applies (RFC 7489 §6.6.3)' };
  }
  if (dmarc.status === 'invalid') {
    return {
      status: 'fail',
      detail: `a DMARC record receivers do not apply: ${dmarc.errors.join('; ')}`,
    };
  }
  if (!dmarc.present || dmarc.policy === null)
    return { status: 'fail', detail: 'no DMARC policy (RFC 7489)' };
  const where =
    dmarc.applied === 'organizational' ? ` (the organisational domain ${dmarc.domain}’s)` : '';
  const assumed = dmarc.warnings.some((warning) => warning.includes('§6.6.3'))
    ? ', read as p=none: the record has no valid p (RFC 7489 §6.6.3)'
    : '';
  return { status: 'pass', detail: `DMARC p=${dmarc.policy}${where}${assumed}` };
}

/**
 * DMARC passes for a message whose From domain is aligned with the SPF-authenticated envelope
 * domain or a DKIM signature's d= (RFC 7489 §3.1). DNS shows whether the domain can be aligned:
 * a DKIM key under the domain lets its own signatures align (`ready`: whether the messages carry
 * them cannot be seen); SPF alone aligns only when the envelope sender is the domain too, which
 * no lookup can see.
 */
export function alignmentFinding(facts: MailFacts): Finding {
  if (facts.dmarc.policy === null)
    return { status: 'fail', detail: 'no DMARC policy applies: nothing asks for alignment' };
  const dkimFound = facts.dkim.selectors.some((selector) => selector.status === 'found');
  if (dkimFound) {
    return {
      status: 'ready',
      detail: `signatures with the published key (d=${facts.domain}) align with From (adkim=${facts.dmarc.adkim}); whether the messages carry them is not visible from outside`,
    };
  }
  if (facts.spf.status === 'found') {
    return {
      status: 'warn',
      detail: `only SPF can align (aspf=${facts.dmarc.aspf}), and only when the envelope sender (Return-Path) is under the domain: DNS cannot show that`,
    };
  }
  return {
    status: 'fail',
    detail: 'neither a DKIM key nor an SPF record under the domain: nothing can align',
  };
}

export function ptrFinding(senders: readonly SampledSender[], total: number): Finding {
  if (senders.length === 0) {
    return {
      status: 'unknown',
      detail: 'no single sender address to sample (SPF lists only ranges or includes none)',
    };
  }
  const of = `${senders.length} of ${total} sender addresses sampled`;
  // The same reading of one address as the IP check's verdict (checks/sender-rules.ts).
  const broken = (finding: string) =>
    senders
      .filter((sender) => ptrBreak(sender.rdns)?.finding === finding)
      .map((sender) => sender.ip);
  const missing = broken('no_ptr');
  const unconfirmed = broken('fcrdns_fail');
  if (missing.length > 0)
    return { status: 'fail', detail: `no PTR record for ${missing.join(', ')} (${of})` };
  if (unconfirmed.length > 0) {
    return {
      status: 'fail',
      detail: `PTR not confirmed forward (FCrDNS) for ${unconfirmed.join(', ')} (${of})`,
    };
  }
  const errors = senders
    .filter((sender) => sender.rdns.fcrdns === 'error')
    .map((sender) => sender.ip);
  if (errors.length === senders.length)
    return { status: 'unknown', detail: `reverse DNS did not answer (${of})` };
  if (errors.length > 0)
    return {
      status: 'warn',
      detail: `reverse DNS did not answer for ${errors.join(', ')} (${of})`,
    };
  return { status: 'pass', detail: `forward-confirmed reverse DNS (${of})` };
}

export function listingFinding(senders: readonly SampledSender[], total: number): Finding {
  if (senders.length === 0)
    return { status: 'unknown', detail: 'no single sender address to check' };
  const of = `${senders.length} of ${total} sender addresses checked`;
  const poor = senders.filter((sender) => sender.listing.verdict === 'poor');
  if (poor.length > 0) {
    const where = poor.map((s) => `${s.ip} (${s.listing.listings.map((l) => l.name).join(', ')})`);
    return { status: 'fail', detail: `on a major list: ${where.join('; ')} (${of})` };
  }
  // A policy listing (Spamhaus PBL and its kin) is no spam report, but receivers that use the
  // list refuse the address's direct mail: it fails, in words of its own.
  const policy = senders.filter((sender) =>
    sender.listing.listings.some((listing) => listing.policy),
  );
  if (policy.length > 0) {
    const where = policy.map(
      (s) =>
        `${s.ip} (${s.listing.listings
          .filter((l) => l.policy)
          .map((l) => l.name)
          .join(', ')})`,
    );
    return {
      status: 'fail',
      detail: `on a policy list, an address that should send through its provider’s relay, not directly: ${where.join('; ')} (${of})`,
    };
  }
  const listed = senders.filter((sender) => sender.listing.listed > 0);
  if (listed.length > 0) {
    return {
      status: 'warn',
      detail: `on a minor list: ${listed.map((s) => s.ip).join(', ')} (${of})`,
    };
  }
  if (senders.every((sender) => sender.listing.answered === 0)) {
    return { status: 'unknown', detail: `no list answered (${of})` };
  }
  return { status: 'pass', detail: `not listed (${of})` };
}

const unseen: Record<'spam_rate' | 'one_click_unsubscribe' | 'message_format', Finding> = {
  spam_rate: {
    status: 'unknown',
    detail:
      'the spam rate users report (Gmail and Yahoo: under 0.3 %) is seen only in Postmaster Tools and the feedback loops',
  },
  one_click_unsubscribe: {
    status: 'unknown',
    detail:
      'List-Unsubscribe and List-Unsubscribe-Post headers (RFC 8058) are in the messages, which DNS does not show',
  },
  message_format: {
    status: 'unknown',
    detail: 'message format (RFC 5322) is in the messages, which DNS does not show',
  },
};

export function findingsOf(facts: MailFacts): Record<RequirementRuleId, Finding> {
  return {
    spf: spfFinding(facts.spf),
    dkim: dkimFinding(facts.dkim, facts.callerSelectors),
    dmarc: dmarcFinding(facts.dmarc),
    alignment: alignmentFinding(facts),
    ptr: ptrFinding(facts.senders, facts.sendersTotal),
    tls: tlsFinding(),
    listing: listingFinding(facts.senders, facts.sendersTotal),
    ...unseen,
    inbound_tls: inboundTlsFinding(facts.mx),
  };
}

/**
 * A provider's verdict: pass when every rule that can be seen passes or is ready (unknown rules
 * are shown and do not lower it), fail when a rule the provider requires fails, warn otherwise.
 */
export function verdictOf(
  rules: readonly Pick<RequirementRule, 'status' | 'required'>[],
): ProviderVerdict['verdict'] {
  if (rules.some((rule) => rule.required && rule.status === 'fail')) return 'fail';
  const met = (status: RequirementRule['status']) =>
    status === 'pass' || status === 'ready' || status === 'unknown';
  return rules.every((rule) => met(rule.status)) ? 'pass' : 'warn';
}

/** Required rules that cannot be seen from outside: a pass is "met, N rules not visible". */
export function unseenOf(rules: readonly Pick<RequirementRule, 'status' | 'required'>[]): number {
  return rules.filter((rule) => rule.required && rule.status === 'unknown').length;
}

export function judgeRequirements(findings: Record<RequirementRuleId, Finding>): Requirements {
  const judged = Object.fromEntries(
    mailProviders.map((provider) => {
      const rules: RequirementRule[] = providerRequirements[provider].rules.map(
        ({ rule, required, source }) => ({ rule, required, ...findings[rule], source }),
      );
      return [provider, { verdict: verdictOf(rules), unseen: unseenOf(rules), rules }];
    }),
  ) as Record<(typeof mailProviders)[number], ProviderVerdict>;
  return { scope: requirementsScope, ...judged };
}
