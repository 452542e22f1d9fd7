import { z } from 'zod';
import { severities } from './zones.js';

/**
 * The results of the checks, as zod schemas: each schema is both the TypeScript type the checks
 * build (`z.infer`) and, through the tools' routes, the OpenAPI document, so the two cannot
 * drift (docs/openapi.md). Plain zod only: the descriptions and component names are zod's own
 * `.meta()`, which the HTTP layer's OpenAPI generator reads; nothing here knows of HTTP.
 */

export const verdictSchema = z.enum(['good', 'fair', 'poor', 'unknown']).meta({
  description:
    'poor under 50 or with a major listing, good from 80; unknown when no list answered.',
});
export type Verdict = z.infer<typeof verdictSchema>;

export const confidenceSchema = z
  .enum(['high', 'medium', 'low', 'none'])
  .meta({ description: 'Share of lists that answered: high from 90 %, medium from 60 %.' });
export type Confidence = z.infer<typeof confidenceSchema>;

export const severitySchema = z.enum(severities);

export const scoreFactorSchema = z
  .object({
    /** What moved the score: a listing, a reputation grade, or a reverse DNS finding. */
    kind: z.enum(['listing', 'grade', 'reverse_dns', 'sender_ip', 'spf', 'dmarc']),
    source: z.string(),
    detail: z.string(),
    points: z.number().meta({ description: 'What it added to (or took off) the score.' }),
  })
  .meta({ id: 'ScoreFactor' });
export type ScoreFactor = z.infer<typeof scoreFactorSchema>;

export const scoreSchema = z.object({
  score: z.number().int().min(0).max(100),
  verdict: verdictSchema,
  confidence: confidenceSchema,
  factors: z
    .array(scoreFactorSchema)
    .meta({ description: 'What moved the score, most costly first.' }),
});
export type Score = z.infer<typeof scoreSchema>;

/** A documented return code of a list and what it means. */
export const listingSchema = z
  .object({
    code: z.string(),
    meaning: z.string(),
    severity: severitySchema,
    weight: z.number(),
  })
  .meta({ id: 'Listing' });
export type Listing = z.infer<typeof listingSchema>;

/** A graded list's reading (Mailspike, Sender Score, DNSWL, HostKarma). */
export const gradeSchema = z
  .object({ label: z.string(), points: z.number(), listed: z.boolean() })
  .meta({ id: 'Grade' });
export type Grade = z.infer<typeof gradeSchema>;

export const listStatusSchema = z.enum(['listed', 'clean', 'error', 'timeout', 'disabled']);
export type ListStatus = z.infer<typeof listStatusSchema>;

export const listResultSchema = z
  .object({
    zone: z.string(),
    name: z.string(),
    type: z.enum(['ip', 'domain']),
    severity: severitySchema,
    status: listStatusSchema,
    codes: z
      .array(z.string())
      .optional()
      .meta({ description: 'The raw A answers, for listings and errors.' }),
    listings: z.array(listingSchema).optional(),
    grade: gradeSchema.optional(),
    reason: z
      .string()
      .optional()
      .meta({ description: 'The list’s TXT record for a listing (RFC 5782 §2.1).' }),
    error: z.string().optional().meta({ description: 'Why the status is error or disabled.' }),
    delist_url: z.string().optional(),
  })
  .meta({ id: 'ListResult', description: 'One list’s answer about the target.' });
export type ListResult = z.infer<typeof listResultSchema>;

export const fcrdnsSchema = z.enum(['pass', 'fail', 'none', 'error']).meta({
  description:
    'pass: a PTR name resolves back; fail: none does; none: no PTR; error: no usable answer.',
});
export type Fcrdns = z.infer<typeof fcrdnsSchema>;

export const reverseDnsSchema = z
  .object({
    ptr: z.string().meta({ description: 'The first PTR name, or "" when there is none.' }),
    names: z.array(z.string()),
    fcrdns: fcrdnsSchema,
    confirmed: z
      .array(z.string())
      .meta({ description: 'PTR names whose A records include the address.' }),
    error: z.string().optional(),
  })
  .meta({ id: 'ReverseDns' });
export type ReverseDns = z.infer<typeof reverseDnsSchema>;

/** What every list-based score reports beside the score: the lists' counts. */
const listCounts = {
  listed: z.number().int().meta({ description: 'Lists that list the target.' }),
  answered: z
    .number()
    .int()
    .meta({ description: 'Lists that gave a usable answer (listed or clean).' }),
  total: z.number().int().meta({ description: 'Lists asked or disabled.' }),
};

export const ipScoreSchema = scoreSchema
  .extend({
    ...listCounts,
    lists: z.array(listResultSchema),
    rdns: reverseDnsSchema,
    addresses: z.array(z.string()).optional().meta({
      description: 'Every public address of a host name target; the first one is checked.',
    }),
    checked_at: z.iso.datetime(),
  })
  .meta({ id: 'IpScore', description: 'IP rating and DNSBL result.' });
export type IpScore = z.infer<typeof ipScoreSchema>;

export const ipCheckResultSchema = z.object({
  kind: z.enum(['ipv4', 'domain']).meta({ description: 'What the target was.' }),
  target: z.string().meta({ description: 'The checked IPv4 address or host name (ASCII form).' }),
  ip: z
    .string()
    .meta({ description: 'The address checked: the target, or its first public address.' }),
  ptr: z.string().meta({ description: 'The first PTR name, or "".' }),
  ip_score: ipScoreSchema,
});
export type IpCheckResult = z.infer<typeof ipCheckResultSchema>;

/** One address's result in brief, as the domain and pool tools show each address they check. */
export const addressSummarySchema = scoreSchema
  .pick({ score: true, verdict: true, confidence: true })
  .extend({
    ip: z.string(),
    ...listCounts,
    listings: z
      .array(
        z.object({ zone: z.string(), name: z.string(), severity: z.string(), detail: z.string() }),
      )
      .meta({ description: 'The lists that list it, with the meaning of their codes.' }),
    unanswered: z
      .array(z.object({ zone: z.string(), status: z.string() }))
      .meta({ description: 'Lists that could not answer (timeout, error, disabled).' }),
  })
  .meta({ id: 'AddressSummary' });
export type AddressSummary = z.infer<typeof addressSummarySchema>;

export const mailExchangerSchema = z
  .object({
    exchange: z.string(),
    priority: z.number().int(),
    addresses: z.array(z.string()).meta({ description: 'IPv4 addresses, sorted numerically.' }),
  })
  .meta({ id: 'MailExchanger' });
export type MailExchanger = z.infer<typeof mailExchangerSchema>;

export const dmarcPolicySchema = z.enum(['none', 'quarantine', 'reject']);
export type DmarcPolicy = z.infer<typeof dmarcPolicySchema>;

export const dmarcRecordSchema = z
  .object({
    status: z.enum(['found', 'none', 'multiple', 'unavailable']).meta({
      description: 'multiple: several v=DMARC1 records, which RFC 7489 §6.6.3 treats as none.',
    }),
    present: z.boolean(),
    record: z.string().nullable(),
    policy: dmarcPolicySchema.nullable().meta({ description: 'The p tag (RFC 7489 §6.3).' }),
  })
  .meta({ id: 'DmarcRecord' });
export type DmarcRecord = z.infer<typeof dmarcRecordSchema>;

/** A term and the domain whose record holds it. */
export const spfTermAtSchema = z.object({ term: z.string(), domain: z.string() });
export type SpfTermAt = z.infer<typeof spfTermAtSchema>;

export const spfErrorSchema = z.object({
  /** §2.6.7 permerror: the records must be fixed. §2.6.6 temperror: DNS failed, may pass later. */
  kind: z.enum(['permerror', 'temperror']),
  reason: z.string(),
  at: z.string().meta({ description: 'The domain whose record holds the failing term.' }),
  term: z.string().nullable(),
});
export type SpfError = z.infer<typeof spfErrorSchema>;

export const spfExpansionSchema = z
  .object({
    domain: z.string(),
    record: z
      .string()
      .nullable()
      .meta({ description: 'The queried domain’s SPF record as published.' }),
    status: z.enum(['found', 'none', 'multiple', 'unavailable']),
    ip4: z.array(z.string()).meta({ description: 'Authorised IPv4 senders, in walk order.' }),
    ip6: z.array(z.string()),
    lookups: z
      .number()
      .int()
      .meta({ description: 'DNS-querying terms evaluated (RFC 7208 §4.6.4: at most 10).' }),
    voidLookups: z.number().int(),
    domains: z.array(z.string()),
    notEnumerable: z.array(spfTermAtSchema),
    skipped: z.array(spfTermAtSchema.extend({ reason: z.string() })),
    nonPass: z.array(spfTermAtSchema),
    error: spfErrorSchema.optional(),
  })
  .meta({ id: 'SpfExpansion', description: 'The SPF evaluation (RFC 7208) of the domain.' });
export type SpfExpansion = z.infer<typeof spfExpansionSchema>;

export const domainScoreSchema = scoreSchema
  .extend({
    ...listCounts,
    lists: z
      .array(listResultSchema)
      .meta({ description: 'The domain itself on the domain lists.' }),
  })
  .meta({ id: 'DomainScore' });
export type DomainScore = z.infer<typeof domainScoreSchema>;

export const domainCheckResultSchema = z.object({
  domain: z.string().meta({ description: 'The checked domain (ASCII form).' }),
  display: z
    .string()
    .optional()
    .meta({ description: 'The name as people write it, when it is an IDN.' }),
  ips: z.array(z.string()).meta({
    description:
      'Sender IPs: addresses, ranges of up to 16 written out, larger ranges as CIDR; sorted numerically.',
  }),
  exists: z
    .boolean()
    .meta({ description: 'False when the domain does not exist (ips is then empty).' }),
  ip6: z.array(z.string()),
  mx: z.array(mailExchangerSchema),
  spf: spfExpansionSchema,
  dmarc: dmarcRecordSchema,
  domain_score: domainScoreSchema,
  addresses: z.object({
    checked: z
      .number()
      .int()
      .meta({ description: 'Single public addresses of ips checked on the IP lists.' }),
    listed: z.number().int(),
    not_checked: z
      .array(z.string())
      .meta({ description: 'Ranges, non-public addresses, or past the bound.' }),
    results: z.array(addressSummarySchema),
  }),
  checked_at: z.iso.datetime(),
});
export type DomainCheckResult = z.infer<typeof domainCheckResultSchema>;

export const poolStopReasonSchema = z
  .enum(['saturated', 'no_addresses', 'sources_failed', 'deadline', 'query_budget'])
  .meta({
    description:
      'Why discovery stopped: saturated (no new address for long enough that one still missing would very likely have shown up), no_addresses (NXDOMAIN or NODATA, RFC 2308), sources_failed (every source kept failing), deadline, query_budget.',
  });
export type PoolStopReason = z.infer<typeof poolStopReasonSchema>;

/** What a pool discovery found, as the discover route answers it (beside `ips` and `results`). */
export const poolDiscoveryFields = {
  pool: z.string(),
  canonicalName: z
    .string()
    .optional()
    .meta({ description: 'The end of the alias chain, when pool is a CNAME (RFC 1034 §3.6.2).' }),
  exists: z.boolean(),
  excludedNonPublic: z
    .number()
    .int()
    .meta({ description: 'Non-public addresses handed out, left out.' }),
  rounds: z.number().int(),
  queries: z.number().int(),
  failedQueries: z.number().int(),
  saturated: z.boolean(),
  stopReason: poolStopReasonSchema,
  sources: z.object({ resolver: z.boolean(), authoritative: z.array(z.string()) }),
  notes: z.array(z.string()),
};

export const poolDiscoverResultSchema = z.object({
  kind: z.literal('discover'),
  ...poolDiscoveryFields,
  ips: z
    .array(z.string())
    .meta({ description: 'Every public IPv4 address seen, sorted numerically.' }),
  results: z
    .array(z.string())
    .meta({ description: 'The same addresses as ips (the contract’s field).' }),
  checked_at: z.iso.datetime(),
});
export type PoolDiscoverResult = z.infer<typeof poolDiscoverResultSchema>;

export const poolCheckResultSchema = z.object({
  kind: z.literal('check'),
  pool: z.string(),
  results: z
    .array(z.string())
    .meta({ description: 'One line per address, in the caller’s order.' }),
  details: z
    .array(addressSummarySchema)
    .meta({ description: 'The structured result per address, same order.' }),
  listed: z.number().int().meta({ description: 'Addresses listed on at least one list.' }),
  checked: z.number().int(),
  checked_at: z.iso.datetime(),
});
export type PoolCheckResult = z.infer<typeof poolCheckResultSchema>;

/** What `discoverPool` returns: the discovery's fields, its status and the addresses found. */
export const poolDiscoverySchema = z.object({
  /** `dns_unavailable` when no query about the pool got a response (the route answers 503). */
  status: z.enum(['ok', 'dns_unavailable']),
  ...poolDiscoveryFields,
  /** Every public IPv4 address seen, sorted numerically, without duplicates. */
  addresses: z.array(z.string()),
});
export type PoolDiscovery = z.infer<typeof poolDiscoverySchema>;
