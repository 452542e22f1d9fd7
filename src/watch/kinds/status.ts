import { z } from 'zod';
import { addressSummarySchema, listResultSchema, verdictSchema } from '../../reputation/index.js';
import { mailFactKindSchema } from './facts.js';

/**
 * What a check of a watch shows the outside, as zod schemas (the types, and through the watch's
 * schemas the OpenAPI document): the status in brief (the badge, the page, the events), and the
 * changes events and history entries carry. Public shapes: they do not change with the facts.
 */

const instant = z.iso.datetime();

/** One list's listing that came or went, as history entries and events carry it. */
export const listingChangeSchema = z
  .object({
    zone: z.string(),
    name: z.string(),
    code: z
      .string()
      .meta({ description: 'The return code(s) the list answers, comma-separated when several.' }),
    meaning: z.string().meta({ description: 'What the list documents the code(s) to mean.' }),
    delist_url: z.string().optional(),
    address: z
      .string()
      .optional()
      .meta({ description: 'For a domain watch: the sender address listed or delisted.' }),
  })
  .meta({ id: 'WatchListingChange' });
export type ListingChange = z.infer<typeof listingChangeSchema>;

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

/** Where the target is listed now: a list, and for a domain's sender address, which address. */
export const listedOnSchema = z
  .object({
    zone: z.string(),
    name: z.string(),
    address: z.string().optional(),
    since: instant.optional().meta({
      description:
        'In a watch view: the check that first recorded this listing (its confirmation, or the first check when it was listed then); absent where the watch does not know.',
    }),
  })
  .meta({ id: 'WatchListedOn' });
export type ListedOn = z.infer<typeof listedOnSchema>;

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
    unseen: z
      .object({ gmail: z.number().int(), yahoo: z.number().int(), microsoft: z.number().int() })
      .optional()
      .meta({
        description: 'Each provider’s required rules not visible from outside, at the last check.',
      }),
  })
  .meta({ id: 'WatchMailStatus' });
export type MailBrief = z.infer<typeof mailBriefSchema>;

/** The last recorded check in brief: what the badge, the page and the events show. */
export const watchStatusSchema = z
  .object({
    verdict: verdictSchema,
    score: z.number().int().min(0).max(100),
    listed_on: z.array(listedOnSchema),
    lists: z.array(listResultSchema).meta({
      description:
        'Every list asked about the target (for a domain, the domain lists), as the last check found it: each as the IP and domain results give it.',
    }),
    addresses: z.array(addressSummarySchema).optional().meta({
      description:
        'For a domain watch: the sender addresses checked, each as the domain result gives it.',
    }),
    mail: mailBriefSchema.optional().meta({
      description:
        'For a mail watch: each provider’s verdict, the DKIM selectors with a key, the MTA-STS status (verdict and score are the mail score’s).',
    }),
  })
  .meta({ id: 'WatchStatus' });
export type WatchStatus = z.infer<typeof watchStatusSchema>;
