import type { MailProvider, RequirementRuleId, RequirementSource } from '../results/index.js';

/**
 * The mailbox providers' published requirements for bulk senders, as data: which rule each
 * provider requires or only advises, and the page that says so with the date it took effect.
 * The stricter set throughout: Gmail's and Yahoo's for senders of 5,000 or more messages a day,
 * Microsoft's for high-volume senders (docs/mail.md has the table and what each rule checks).
 */

const gmail: RequirementSource = {
  title: 'Google: Email sender guidelines (requirements for all senders and for bulk senders)',
  url: 'https://support.google.com/a/answer/81126',
  date: '2024-02-01',
};
const yahoo: RequirementSource = {
  title: 'Yahoo Sender Hub: Sender Best Practices (requirements for bulk senders)',
  url: 'https://senders.yahooinc.com/best-practices/',
  date: '2024-02-01',
};
const microsoft: RequirementSource = {
  title: 'Microsoft: Outlook’s new requirements for high-volume senders',
  url: 'https://techcommunity.microsoft.com/blog/microsoftdefenderforoffice365blog/strengthening-email-ecosystem-outlook%E2%80%99s-new-requirements-for-high%E2%80%90volume-senders/4399730',
  date: '2025-05-05',
};

export interface ProviderRule {
  rule: RequirementRuleId;
  required: boolean;
}

export interface ProviderRequirements {
  source: RequirementSource;
  rules: readonly ProviderRule[];
}

const required = (rule: RequirementRuleId): ProviderRule => ({ rule, required: true });
const advised = (rule: RequirementRuleId): ProviderRule => ({ rule, required: false });

export const providerRequirements: Readonly<Record<MailProvider, ProviderRequirements>> = {
  // Gmail: SPF and DKIM, DMARC (p=none is enough) aligned with one of them, forward-confirmed
  // reverse DNS for sending IPs, TLS, spam rate under 0.3 %, one-click unsubscribe (RFC 8058),
  // messages formatted to RFC 5322. Listings are not in the page: advised, as all receivers use them.
  gmail: {
    source: gmail,
    rules: [
      required('spf'),
      required('dkim'),
      required('dmarc'),
      required('alignment'),
      required('ptr'),
      required('tls'),
      advised('listing'),
      required('spam_rate'),
      required('one_click_unsubscribe'),
      required('message_format'),
    ],
  },
  // Yahoo: SPF and DKIM, DMARC (p=none) aligned, valid forward and reverse DNS, spam rate under
  // 0.3 %, one-click unsubscribe, RFC 5321 and 5322 compliance; TLS is not among its requirements.
  yahoo: {
    source: yahoo,
    rules: [
      required('spf'),
      required('dkim'),
      required('dmarc'),
      required('alignment'),
      required('ptr'),
      advised('tls'),
      advised('listing'),
      required('spam_rate'),
      required('one_click_unsubscribe'),
      required('message_format'),
    ],
  },
  // Microsoft (Outlook.com, Hotmail, Live), from 5 May 2025: SPF pass, DKIM pass, DMARC at least
  // p=none aligned with SPF or DKIM; a working unsubscribe link and compliant sender addresses
  // are recommended.
  microsoft: {
    source: microsoft,
    rules: [
      required('spf'),
      required('dkim'),
      required('dmarc'),
      required('alignment'),
      advised('ptr'),
      advised('tls'),
      advised('listing'),
      advised('one_click_unsubscribe'),
      advised('message_format'),
    ],
  },
};

export const requirementsScope =
  'The bulk-sender requirements: Gmail’s and Yahoo’s for senders of 5,000 or more messages a day, Microsoft’s for high-volume senders; what cannot be seen from outside the messages is unknown.';

/**
 * The providers whose table names a rule, each with its page: those that require it, or with
 * `advised` also those that only advise it. The IP tool's next steps cite these pages for `ptr`
 * and `listing`, the same ones the mail check's rules carry.
 */
export function rulePages(
  rule: RequirementRuleId,
  which: 'required' | 'advised',
): { provider: MailProvider; source: RequirementSource }[] {
  return (Object.keys(providerRequirements) as MailProvider[])
    .filter((provider) =>
      providerRequirements[provider].rules.some(
        (entry) => entry.rule === rule && (entry.required || which === 'advised'),
      ),
    )
    .map((provider) => ({ provider, source: providerRequirements[provider].source }));
}
