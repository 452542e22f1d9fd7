import type { MailProvider, RequirementRuleId, RequirementSource } from '../results/index.js';

/**
 * The mailbox providers' published requirements for bulk senders, as data: which rule each
 * provider requires (its page says must) or only advises, each with the page that states it
 * (docs/mail.md has the table and what each rule checks). A rule no page of a provider states is
 * not in its table.
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
const microsoftBlog: RequirementSource = {
  title: 'Microsoft: Outlook’s new requirements for high-volume senders',
  url: 'https://techcommunity.microsoft.com/blog/microsoftdefenderforoffice365blog/strengthening-email-ecosystem-outlook%E2%80%99s-new-requirements-for-high%E2%80%90volume-senders/4399730',
  date: '2025-05-05',
};
const microsoftPolicies: RequirementSource = {
  title: 'Outlook.com postmaster: Policies, practices, and guidelines',
  url: 'https://sendersupport.olc.protection.outlook.com/pm/policies.aspx',
  date: null,
};

/** RFC 3207: the source of `inbound_tls`, which no provider's page names. */
export const inboundTlsSource: RequirementSource = {
  title: 'RFC 3207: SMTP Service Extension for Secure SMTP over Transport Layer Security',
  url: 'https://www.rfc-editor.org/rfc/rfc3207',
  date: '2002-02-01',
};

export interface ProviderRule {
  rule: RequirementRuleId;
  required: boolean;
  source: RequirementSource;
}

export interface ProviderRequirements {
  /** The provider's main page: its bulk-sender requirements. */
  source: RequirementSource;
  rules: readonly ProviderRule[];
}

const required =
  (source: RequirementSource) =>
  (rule: RequirementRuleId): ProviderRule => ({ rule, required: true, source });
const advised =
  (source: RequirementSource) =>
  (rule: RequirementRuleId): ProviderRule => ({ rule, required: false, source });

export const providerRequirements: Readonly<Record<MailProvider, ProviderRequirements>> = {
  // Gmail: SPF and DKIM, DMARC (p=none is enough) aligned with one of them, valid forward and
  // reverse DNS for sending IPs, a TLS connection for transmitting email, spam rate under 0.3 %,
  // one-click unsubscribe (RFC 8058), messages formatted to RFC 5322; listings advised.
  gmail: {
    source: gmail,
    rules: [
      ...(['spf', 'dkim', 'dmarc', 'alignment', 'ptr', 'tls'] as const).map(required(gmail)),
      advised(gmail)('listing'),
      ...(['spam_rate', 'one_click_unsubscribe', 'message_format'] as const).map(required(gmail)),
    ],
  },
  // Yahoo: SPF and DKIM, DMARC (p=none) aligned, valid forward and reverse DNS, spam rate under
  // 0.3 %, one-click unsubscribe, RFC 5321 and 5322 compliance. Its pages name neither TLS nor
  // blocklists, and no volume ("we will not specify a volume threshold").
  yahoo: {
    source: yahoo,
    rules: (
      [
        'spf',
        'dkim',
        'dmarc',
        'alignment',
        'ptr',
        'spam_rate',
        'one_click_unsubscribe',
        'message_format',
      ] as const
    ).map(required(yahoo)),
  },
  // Microsoft (Outlook.com, Hotmail, Live), from 5 May 2025 for domains sending more than 5,000
  // messages a day: SPF pass, DKIM pass, DMARC at least p=none aligned with SPF or DKIM; a working
  // unsubscribe link recommended. Its postmaster policies make valid reverse DNS and compliance
  // with RFC 5321 and 5322 musts. Neither page names TLS or blocklists.
  microsoft: {
    source: microsoftBlog,
    rules: [
      ...(['spf', 'dkim', 'dmarc', 'alignment'] as const).map(required(microsoftBlog)),
      required(microsoftPolicies)('ptr'),
      advised(microsoftBlog)('one_click_unsubscribe'),
      required(microsoftPolicies)('message_format'),
    ],
  },
};

export const requirementsScope =
  'The bulk-sender requirements: Gmail’s for senders of 5,000 or more messages a day to Gmail, Yahoo’s for bulk senders (Yahoo names no volume), Microsoft’s for domains sending more than 5,000 a day; what cannot be seen from outside the messages is unknown, and a rule met in DNS that the messages must still carry out (a DKIM key, alignment) is ready, not proven.';

/**
 * The providers whose table names a rule, each with the page that states it: those that require
 * it, or with `advised` also those that only advise it. The IP tool's next steps cite these pages
 * for `ptr` and `listing`, the same ones the mail check's rules carry.
 */
export function rulePages(
  rule: RequirementRuleId,
  which: 'required' | 'advised',
): { provider: MailProvider; source: RequirementSource }[] {
  return (Object.keys(providerRequirements) as MailProvider[]).flatMap((provider) => {
    const entry = providerRequirements[provider].rules.find((each) => each.rule === rule);
    return entry && (entry.required || which === 'advised')
      ? [{ provider, source: entry.source }]
      : [];
  });
}
