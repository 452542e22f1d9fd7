import { z } from 'zod';

/**
 * What a watch knows of its target, as facts (docs/watch-engine.md, "Facts and merge"): each one
 * thing a check showed, by what it is (`what`), of what (`subject`, and for a domain watch's
 * sender address the `address` it was asked about), its value (what a change compares) and what
 * the check said of it (`detail`). A list's status and a mail setup's rule are facts alike, so one
 * merge reads them all. A fact is found by its key, the three fields that name it: typed, and
 * never a string read back.
 */

const instant = z.iso.datetime();

/** The facts of a mail watch (docs/watches.md, "Mail watches"). */
export const mailFactKinds = ['requirement', 'verdict', 'certificate', 'mta_sts', 'dkim'] as const;

export const mailFactKindSchema = z.enum(mailFactKinds).meta({
  description:
    'requirement: a requirement rule’s status (the same finding for every provider, docs/mail.md); verdict: a provider’s verdict, judged over the rule statuses the watch knows; certificate: an MX host’s certificate (valid: 14 days or more left, expiring: fewer, expired); mta_sts: the MTA-STS status; dkim: a DKIM selector’s key status.',
});
export type MailFactKind = z.infer<typeof mailFactKindSchema>;

/** What a list said of a listing, kept so that its delisting can say what it was. */
export const listingDetailSchema = z.object({
  name: z.string(),
  codes: z.array(z.string()).optional(),
  meaning: z.string().optional(),
  delist_url: z.string().optional(),
});

/**
 * A list's status for the target, or for a domain's sender address: `listed` or `not_listed`,
 * never a timeout or an error (a list that did not answer is not heard, and keeps what was known).
 */
export const listFactSchema = z.object({
  what: z.literal('list'),
  /** The zone. */
  subject: z.string(),
  /** A domain watch's sender address the list was asked about; absent: the target itself. */
  address: z.string().optional(),
  value: z.enum(['listed', 'not_listed']),
  detail: listingDetailSchema,
  /**
   * A listing's first recorded check (docs/watches.md, "Listed since"): set when the listing is
   * recorded or confirmed, kept while it lasts; absent where the watch does not know it.
   */
  since: instant.optional(),
});
export type ListFact = z.infer<typeof listFactSchema>;

/** One thing a mail check showed that a mail watch follows. */
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

export const factSchema = z.discriminatedUnion('what', [listFactSchema, mailFactSchema]);
export type Fact = z.infer<typeof factSchema>;
export type FactKind = Fact['what'];

/** What names a fact: two facts with the same key are one fact heard twice. */
export interface FactKey {
  what: FactKind;
  subject: string;
  address?: string | undefined;
}

export function keyOf(fact: FactKey): FactKey {
  return {
    what: fact.what,
    subject: fact.subject,
    ...(fact.address === undefined ? {} : { address: fact.address }),
  };
}

/** A key as the index of a Map: built from the key's fields, never parsed back. */
export function factId(key: FactKey): string {
  return JSON.stringify([key.what, key.address ?? null, key.subject]);
}

/**
 * A change heard and not yet confirmed (docs/watches.md, "Confirmed changes"): the fact's key, the
 * value heard and how many checks in a row heard it. The known value stays until it is confirmed.
 */
export const unconfirmedSchema = z.object({
  what: z.enum(['list', ...mailFactKinds]),
  subject: z.string(),
  address: z.string().optional(),
  value: z.string(),
  seen: z.number().int().min(1),
});
export type Unconfirmed = z.infer<typeof unconfirmedSchema>;
