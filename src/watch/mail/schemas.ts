import { z } from 'zod';

/**
 * What a mail watch keeps and reports (docs/watches.md, "Mail watches"), as zod schemas: the
 * types the engine builds and stores and, through the watch's schemas, the OpenAPI document.
 */

export const mailFactKinds = ['requirement', 'verdict', 'certificate', 'mta_sts', 'dkim'] as const;

export const mailFactKindSchema = z.enum(mailFactKinds).meta({
  description:
    'requirement: a requirement rule’s status (the same finding for every provider, docs/mail.md); verdict: a provider’s verdict, judged over the rule statuses the watch knows; certificate: an MX host’s certificate (valid: 14 days or more left, expiring: fewer, expired); mta_sts: the MTA-STS status; dkim: a DKIM selector’s key status.',
});
export type MailFactKind = z.infer<typeof mailFactKindSchema>;

/** One thing a mail check showed that a watch follows, by its key (`mailFactKey`). */
export const mailFactSchema = z.object({
  what: mailFactKindSchema,
  /** The rule, the provider, the MX host, the domain or the selector. */
  subject: z.string(),
  /** Its status: what a change compares. */
  value: z.string(),
  /** What the check said of it (a rule's detail, a certificate's days left), for the change. */
  detail: z.string().nullable(),
  /** A certificate's expiry: kept as news of a renewal, never compared. */
  not_after: z.string().optional(),
});
export type MailFact = z.infer<typeof mailFactSchema>;

/** Fact key -> the fact: what the watch knows, or what one check heard. */
export const mailFactsSchema = z.record(z.string(), mailFactSchema);
export type MailFacts = z.infer<typeof mailFactsSchema>;

/** The key a fact is kept under: its kind and subject. */
export function mailFactKey(fact: Pick<MailFact, 'what' | 'subject'>): string {
  return `${fact.what}:${fact.subject}`;
}

/** One change of a mail watch, as its event and history carry it. */
export const mailChangeSchema = z
  .object({
    what: mailFactKindSchema,
    subject: z.string().meta({
      description:
        'The requirement rule (spf, dkim, dmarc, alignment, ptr, tls, listing), the provider (gmail, yahoo, microsoft), the MX host, the domain (mta_sts) or the DKIM selector.',
    }),
    from: z.string().meta({ description: 'The status known before.' }),
    to: z.string().meta({ description: 'The status now.' }),
    detail: z.string().nullable().meta({ description: 'What the check says of it now.' }),
  })
  .meta({ id: 'WatchMailChange' });
export type MailChange = z.infer<typeof mailChangeSchema>;

const providerVerdict = z.enum(['pass', 'warn', 'fail']);

/** A mail watch's last check in brief: the mail score's verdict and each provider's. */
export const mailBriefSchema = z
  .object({
    providers: z.object({
      gmail: providerVerdict,
      yahoo: providerVerdict,
      microsoft: providerVerdict,
    }),
    dkim_selectors: z
      .array(z.string())
      .meta({ description: 'The DKIM selectors with a usable key at the last check.' }),
    mta_sts: z.string().meta({ description: 'The MTA-STS status at the last check.' }),
  })
  .meta({ id: 'WatchMailStatus' });
export type MailBrief = z.infer<typeof mailBriefSchema>;
