import { z } from 'zod';
import {
  dmarcPolicySchema,
  dmarcRecordSchema,
  listCounts,
  listResultSchema,
  spfSummarySchema,
} from './result-schemas.js';

/**
 * The mail check's result (docs/mail.md): the domain's mail authentication (SPF, DKIM, DMARC,
 * BIMI), its MX servers' transport security (STARTTLS and certificates, MTA-STS, TLS-RPT, DANE),
 * and the mailbox providers' published sender requirements judged on what can be seen from
 * outside. Each schema is the type the check builds and, through the tool's routes, the OpenAPI
 * document (docs/openapi.md).
 */

/** The selectors a caller may name, and the MX hosts probed: the bounds the schema states. */
export const maxCallerSelectors = 10;
export const maxProbedMxHosts = 5;
/** DKIM selectors tried per check, the caller's included (a query each). */
export const maxTriedSelectors = 40;
/** External DMARC report destinations whose authorisation is asked (a query each). */
export const maxReportDestinations = 8;

const nullableString = z.string().nullable();

export const dkimKeyStatusSchema = z.enum(['found', 'none', 'invalid', 'revoked']).meta({
  description:
    'found: a usable key (RFC 6376 §3.6.1); none: no key record at the selector; invalid: a record that is no usable key (bad syntax, an unknown key type, an RSA key under 1024 bits, RFC 8301 §3.2); revoked: an empty p= (RFC 6376 §3.6.1).',
});
export type DkimKeyStatus = z.infer<typeof dkimKeyStatusSchema>;

export const dkimSelectorSchema = z
  .object({
    selector: z.string(),
    source: z.string().meta({
      description:
        'Why it was tried: "caller", a provider of the common-selector table (assets/dkim-selectors.json), or "mx:<host>" / "spf:<include>" for a provider inferred from the domain’s records.',
    }),
    status: dkimKeyStatusSchema,
    key_type: z.enum(['rsa', 'ed25519']).nullable(),
    key_bits: z.number().int().nullable().meta({
      description: 'The key’s size: an RSA modulus in bits, 256 for an Ed25519 key (RFC 8463).',
    }),
    testing: z
      .boolean()
      .meta({ description: 't=y: the domain is testing DKIM (RFC 6376 §3.6.1).' }),
    warning: nullableString.meta({
      description:
        'An RSA key under 2048 bits: verifiers must accept it, but 2048 is advised (RFC 8301 §3.2).',
    }),
    detail: nullableString.meta({ description: 'Why a record is invalid or revoked.' }),
  })
  .meta({ id: 'DkimSelector' });
export type DkimSelector = z.infer<typeof dkimSelectorSchema>;

export const dkimSchema = z
  .object({
    status: z.enum(['found', 'none', 'invalid']).meta({
      description:
        'found: at least one selector holds a usable key; invalid: keys were found, none usable; none: no selector tried holds a key. DNS cannot list a domain’s selectors: only those tried are known.',
    }),
    tried: z.array(z.string()).meta({ description: 'Every selector asked, in the order asked.' }),
    selectors: z.array(dkimSelectorSchema).meta({
      description:
        'The selectors with a record (found, invalid, revoked), and every selector the caller named whatever its status.',
    }),
  })
  .meta({ id: 'Dkim' });
export type Dkim = z.infer<typeof dkimSchema>;

export const alignmentModeSchema = z
  .enum(['r', 's'])
  .meta({ description: 'RFC 7489 §3.1: r relaxed (the same organisational domain), s strict.' });

export const reportDestinationSchema = z
  .object({
    uri: z.string(),
    domain: z.string().meta({ description: 'The domain of the mailto: address.' }),
    external: z.boolean().meta({
      description:
        'Another organisational domain than the policy’s: it must authorise the reports (RFC 7489 §7.1).',
    }),
    authorized: z.boolean().nullable().meta({
      description:
        'external: whether <policy domain>._report._dmarc.<destination> holds a v=DMARC1 record; null when not external or not asked.',
    }),
    detail: nullableString,
  })
  .meta({ id: 'DmarcReportDestination' });
export type ReportDestination = z.infer<typeof reportDestinationSchema>;

export const mailDmarcSchema = dmarcRecordSchema
  .extend({
    p: dmarcPolicySchema.nullable().meta({
      description:
        'The record’s p tag as receivers apply it (RFC 7489 §6.3): none when a record with no valid p has a valid rua (§6.6.3, said in warnings); null when the record is not valid.',
    }),
    sp: dmarcPolicySchema.nullable().meta({ description: 'The sp tag, null when absent.' }),
    pct: z.number().int().min(0).max(100).meta({ description: 'pct, 100 when absent.' }),
    fo: z.array(z.string()).meta({
      description: 'Failure reporting options (fo: 0, 1, d, s), ["0"] when absent.',
    }),
    rf: z.array(z.string()).meta({ description: 'Failure report formats, ["afrf"] when absent.' }),
    ri: z
      .number()
      .int()
      .meta({ description: 'Aggregate report interval in seconds, 86400 when absent.' }),
    rua: z.array(reportDestinationSchema),
    ruf: z.array(reportDestinationSchema),
    adkim: alignmentModeSchema,
    aspf: alignmentModeSchema,
    organizational_domain: nullableString.meta({
      description:
        'The checked domain’s organisational domain (RFC 7489 §3.2), by the Public Suffix List.',
    }),
  })
  .meta({ id: 'MailDmarc' });
export type MailDmarc = z.infer<typeof mailDmarcSchema>;

export const bimiSchema = z
  .object({
    status: z.enum(['found', 'none', 'invalid', 'unavailable']),
    record: nullableString,
    l: nullableString.meta({ description: 'The logo’s HTTPS URL (an SVG Tiny PS file).' }),
    a: nullableString.meta({ description: 'The mark certificate’s HTTPS URL (VMC or CMC).' }),
    dmarc_ready: z.boolean().meta({
      description:
        'The DMARC policy is quarantine or reject at pct=100: mailbox providers show a BIMI logo only then.',
    }),
    detail: nullableString,
  })
  .meta({ id: 'Bimi' });
export type Bimi = z.infer<typeof bimiSchema>;

export const smtpStatusSchema = z
  .enum(['ok', 'no_starttls', 'timeout', 'refused', 'error', 'not_probed'])
  .meta({
    description:
      'ok: greeting, EHLO, STARTTLS and a TLS handshake; no_starttls: the server does not offer STARTTLS; timeout: a stage did not end within SMTP_TIMEOUT_MS; refused: the connection was refused or reset; error: another failure (a 4xx/5xx greeting, a failed handshake); not_probed: not connected (the address is not public, the probe budget was spent, or this runtime cannot open port 25).',
  });
export type SmtpStatus = z.infer<typeof smtpStatusSchema>;

export const certificateSchema = z
  .object({
    subject_names: z.array(z.string()).meta({
      description: 'The DNS names of subjectAltName, else the subject’s CN.',
    }),
    issuer: z.string(),
    not_after: z.iso.datetime(),
    days_left: z
      .number()
      .int()
      .meta({ description: 'Whole days to not_after; negative when expired.' }),
    trusted: z.boolean().meta({
      description:
        'The runtime’s own verdict (Node: socket.authorized): the chain verifies against its trust store (plus NODE_EXTRA_CA_CERTS), the certificate is in its validity period and valid for the MX host name. The probe reads the certificate whatever the verdict.',
    }),
    name_matches: z
      .boolean()
      .meta({ description: 'The certificate is valid for the MX host name (RFC 6125).' }),
    trust_error: nullableString.meta({
      description:
        'Why it does not verify, as the runtime says it (Node: socket.authorizationError, e.g. CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, ERR_TLS_CERT_ALTNAME_INVALID); null when trusted.',
    }),
  })
  .meta({ id: 'Certificate' });
export type Certificate = z.infer<typeof certificateSchema>;

export const smtpProbeSchema = z
  .object({
    status: smtpStatusSchema,
    stage: z
      .enum(['connect', 'greeting', 'ehlo', 'starttls', 'tls'])
      .nullable()
      .meta({ description: 'Where a probe that is not ok stopped; null when ok or not probed.' }),
    address: nullableString.meta({ description: 'The address connected to (or not probed).' }),
    banner: nullableString.meta({ description: 'The 220 greeting, cut to 512 characters.' }),
    starttls: z
      .boolean()
      .nullable()
      .meta({ description: 'Whether EHLO offered STARTTLS (RFC 3207); null when not asked.' }),
    tls: z.object({ version: z.string(), cipher: z.string() }).nullable(),
    certificate: certificateSchema.nullable(),
    detail: nullableString,
  })
  .meta({ id: 'SmtpProbe' });
export type SmtpProbe = z.infer<typeof smtpProbeSchema>;

export const mailMxHostSchema = z
  .object({
    host: z.string(),
    preference: z.number().int(),
    addresses: z.array(z.string()).meta({
      description: 'Every A then AAAA address, public or not (smtp says which was probed).',
    }),
    smtp: smtpProbeSchema,
  })
  .meta({ id: 'MailMxHost' });
export type MailMxHost = z.infer<typeof mailMxHostSchema>;

export const mtaStsPolicySchema = z.object({
  mode: z.enum(['enforce', 'testing', 'none']),
  mx: z.array(z.string()),
  max_age: z.number().int(),
});
export type MtaStsPolicy = z.infer<typeof mtaStsPolicySchema>;

export const mtaStsSchema = z
  .object({
    status: z.enum(['enforce', 'testing', 'none', 'invalid', 'error']).meta({
      description:
        'The policy’s mode when the TXT record and the policy are sound (RFC 8461); none: no _mta-sts record; invalid: a record or policy RFC 8461 §3 rejects; error: the policy could not be fetched (HTTPS, certificate, status, time).',
    }),
    id: nullableString.meta({ description: 'The TXT record’s id (RFC 8461 §3.1).' }),
    record: nullableString,
    policy: mtaStsPolicySchema.nullable(),
    mx_covered: z.boolean().nullable().meta({
      description:
        'Every MX host matches one of the policy’s mx patterns (RFC 8461 §4.1); null without a policy.',
    }),
    uncovered: z.array(z.string()).meta({ description: 'MX hosts no pattern matches.' }),
    detail: nullableString,
  })
  .meta({ id: 'MtaSts' });
export type MtaSts = z.infer<typeof mtaStsSchema>;

export const tlsRptSchema = z
  .object({
    status: z.enum(['found', 'none', 'invalid', 'unavailable']),
    record: nullableString,
    rua: z.array(z.string()).meta({ description: 'mailto: and https: report URIs (RFC 8460 §3).' }),
    detail: nullableString,
  })
  .meta({ id: 'TlsRpt' });
export type TlsRpt = z.infer<typeof tlsRptSchema>;

export const tlsaRecordSchema = z.object({
  usage: z.number().int(),
  selector: z.number().int(),
  matching_type: z.number().int(),
  data: z.string().meta({ description: 'The certificate association data, hex.' }),
});
export type TlsaRecord = z.infer<typeof tlsaRecordSchema>;

export const daneSchema = z
  .object({
    status: z.enum(['found', 'none', 'not_checked']).meta({
      description:
        'found: TLSA records at _25._tcp.<mx> for at least one MX host (RFC 7672); not_checked: this service’s resolver cannot ask for TLSA records with their DNSSEC status.',
    }),
    validating: z.boolean().nullable().meta({
      description:
        'Whether the resolver validates DNSSEC: the AD bit (RFC 4035 §3.2.3) on a TLSA answer or, when none has it, on its answer about the signed root zone (then the MX hosts’ zones are not signed). false means DANE cannot be judged from here; null when not asked.',
    }),
    hosts: z.array(
      z.object({
        host: z.string(),
        status: z.enum(['found', 'none', 'error']),
        authenticated: z.boolean().nullable(),
        records: z.array(tlsaRecordSchema),
      }),
    ),
    detail: nullableString,
  })
  .meta({ id: 'Dane' });
export type Dane = z.infer<typeof daneSchema>;

/**
 * The rules judged: the providers' (each provider's table names those it requires or advises),
 * and `inbound_tls`, the receiving MX servers' STARTTLS, which no provider's verdict requires.
 */
export const requirementRuleIds = [
  'spf',
  'dkim',
  'dmarc',
  'alignment',
  'ptr',
  'tls',
  'listing',
  'spam_rate',
  'one_click_unsubscribe',
  'message_format',
  'inbound_tls',
] as const;
export type RequirementRuleId = (typeof requirementRuleIds)[number];

export const requirementStatusSchema = z.enum(['pass', 'ready', 'warn', 'fail', 'unknown']).meta({
  description:
    'pass: met, as far as can be seen; ready: DNS holds what the rule needs (a DKIM key, a key that lets signatures align), but whether the messages do it (are signed, aligned) cannot be seen from outside, so it is no proof; warn: met with a doubt; fail: not met; unknown: cannot be seen from outside (the sending side’s TLS, the spam rate, the messages’ headers and format).',
});
export type RequirementStatus = z.infer<typeof requirementStatusSchema>;

export const requirementSourceSchema = z
  .object({
    title: z.string(),
    url: z.string(),
    date: z.iso.date().nullable().meta({
      description:
        'When the provider’s requirement took effect; null where the page gives no date.',
    }),
  })
  .meta({ id: 'RequirementSource' });
export type RequirementSource = z.infer<typeof requirementSourceSchema>;

export const requirementRuleSchema = z
  .object({
    rule: z.enum(requirementRuleIds),
    status: requirementStatusSchema.meta({
      description:
        'unknown: cannot be seen from outside the messages (spam rate, unsubscribe headers, format); never counts as pass or fail.',
    }),
    required: z.boolean().meta({
      description:
        'The provider requires it of bulk senders (its page says must); false: it advises it, or (inbound_tls) no provider names it.',
    }),
    detail: z.string(),
    source: requirementSourceSchema.meta({ description: 'The page that states the rule.' }),
  })
  .meta({ id: 'RequirementRule' });
export type RequirementRule = z.infer<typeof requirementRuleSchema>;

export const providerVerdictSchema = z
  .object({
    verdict: z.enum(['pass', 'warn', 'fail']).meta({
      description:
        'pass: every rule that can be seen passes or is ready (unknown rules do not lower it); fail: a required rule fails; warn otherwise. A pass is never proof: unseen says how many required rules could not be seen.',
    }),
    unseen: z.number().int().min(0).meta({
      description:
        'Required rules that cannot be seen from outside (status unknown): a pass reads "met, N rules not visible from outside".',
    }),
    rules: z.array(requirementRuleSchema),
  })
  .meta({ id: 'ProviderVerdict' });
export type ProviderVerdict = z.infer<typeof providerVerdictSchema>;

export const mailProviders = ['gmail', 'yahoo', 'microsoft'] as const;
export type MailProvider = (typeof mailProviders)[number];

export const requirementsSchema = z
  .object({
    scope: z.string().meta({
      description:
        'Which rules: the bulk-sender ones (Gmail: 5,000 or more messages a day to Gmail; Yahoo: bulk senders, with no volume named; Microsoft: more than 5,000 a day).',
    }),
    gmail: providerVerdictSchema,
    yahoo: providerVerdictSchema,
    microsoft: providerVerdictSchema,
  })
  .meta({ id: 'MailRequirements' });
export type Requirements = z.infer<typeof requirementsSchema>;

export const mailScoreFactorSchema = z
  .object({
    code: z.string().meta({
      description: 'The finding, a stable snake_case code (the pages explain it in each language).',
    }),
    source: z.string(),
    detail: z.string(),
    points: z.number().int(),
  })
  .meta({ id: 'MailScoreFactor' });
export type MailScoreFactor = z.infer<typeof mailScoreFactorSchema>;

export const mailScoreSchema = z
  .object({
    score: z.number().int().min(0).max(100),
    verdict: z.enum(['good', 'fair', 'poor']).meta({
      description:
        'By the score alone: poor under 50, good from 80, fair between. A provider’s fail or the domain on a major domain list holds the score under 50 (a factor says so), so the verdict, the score and their colour agree.',
    }),
    factors: z
      .array(mailScoreFactorSchema)
      .meta({ description: 'What cost points, most costly first.' }),
  })
  .meta({ id: 'MailScore' });
export type MailScore = z.infer<typeof mailScoreSchema>;

export const fixRecordSchema = z
  .object({
    name: z.string().meta({ description: 'Where to publish it, e.g. _dmarc.example.org.' }),
    type: z.literal('TXT'),
    value: z.string().meta({
      description:
        'The record, built from what was found and keeping what is there (one string; DNS consoles split it as needed).',
    }),
  })
  .meta({ id: 'MailFixRecord' });
export type FixRecord = z.infer<typeof fixRecordSchema>;

export const mailFixSchema = z
  .object({
    code: z.string().meta({
      description:
        'What to do, a stable snake_case code the pages word in each language (publish_dmarc, fix_spf, enable_dkim, inbound_starttls, delist_domain ...).',
    }),
    rules: z.array(z.enum(requirementRuleIds)).meta({ description: 'The rules it fixes.' }),
    moves: z.number().int().min(0).meta({
      description:
        'Provider rules (a rule of one provider’s table) it turns from fail or warn to pass or ready.',
    }),
    record: fixRecordSchema.nullable().meta({
      description: 'The exact record to publish when a record is the fix; null otherwise.',
    }),
    detail: z.string().meta({ description: 'The one sentence of what to do, in English.' }),
    subject: z.string().nullable().meta({
      description:
        'What it is about, as the pages name it in every language: a host, a selector, an address, a list.',
    }),
  })
  .meta({ id: 'MailFix' });
export type MailFix = z.infer<typeof mailFixSchema>;

/** At most this many fixes: the few that move the most. */
export const maxMailFixes = 5;

export const mailDomainListsSchema = z
  .object({
    ...listCounts,
    lists: z.array(listResultSchema).meta({
      description:
        'The domain itself on the domain lists (Spamhaus DBL, URIBL, SURBL ...): the domain tool’s check of the same lists.',
    }),
  })
  .meta({ id: 'MailDomainLists' });
export type MailDomainLists = z.infer<typeof mailDomainListsSchema>;

export const mailCheckResultSchema = z
  .object({
    domain: z.string().meta({ description: 'The checked domain (ASCII form).' }),
    display: z.string().optional(),
    fixes: z.array(mailFixSchema).max(maxMailFixes).meta({
      description:
        'What to fix first: the few changes that move the most provider rules (then the most points), in order, each with the exact record for this domain where a record is the fix.',
    }),
    spf: spfSummarySchema,
    dkim: dkimSchema,
    dmarc: mailDmarcSchema,
    bimi: bimiSchema,
    null_mx: z.boolean().meta({
      description: 'The domain publishes a null MX (RFC 7505): it accepts no mail; mx is empty.',
    }),
    implicit_mx: z.boolean().meta({
      description: 'No MX records: the domain’s own address is its mail host (RFC 5321 §5.1).',
    }),
    mx_total: z.number().int().meta({ description: 'MX records the domain publishes.' }),
    mx: z.array(mailMxHostSchema).meta({
      description: `The ${maxProbedMxHosts} most preferred MX hosts, each probed on one address.`,
    }),
    mta_sts: mtaStsSchema,
    tls_rpt: tlsRptSchema,
    dane: daneSchema,
    requirements: requirementsSchema,
    inbound_tls: requirementRuleSchema.meta({
      description:
        'The receiving MX servers’ STARTTLS (RFC 3207), a rule of its own that no provider’s verdict requires: the providers’ TLS rules are about the sending side.',
    }),
    domain_lists: mailDomainListsSchema,
    mail_score: mailScoreSchema,
    notes: z.array(z.string()).meta({
      description: 'Bounds that cut the check short, and port 25 blocked from this server.',
    }),
    checked_at: z.iso.datetime(),
  })
  .meta({ id: 'MailCheckResult' });
export type MailCheckResult = z.infer<typeof mailCheckResultSchema>;
