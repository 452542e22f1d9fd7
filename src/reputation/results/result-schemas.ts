import { z } from 'zod';
import {
  maxAddressesPerHost,
  maxListedAddresses,
  maxListedNames,
  maxListedNetworks,
  maxListedTerms,
  maxRecordChars,
} from './result-limits.js';

/**
 * The results of the checks, as zod schemas: each schema is both the TypeScript type the checks
 * build (`z.infer`) and, through the tools' routes, the OpenAPI document, so the two cannot
 * drift (docs/openapi.md). Plain zod only: the descriptions and component names are zod's own
 * `.meta()`, which the HTTP layer's OpenAPI generator reads; nothing here knows of HTTP.
 */

/** How much a listing on a list weighs, as the zone list gives it (docs/zone-list.md). */
export const severities = ['major', 'minor', 'info'] as const;
export type Severity = (typeof severities)[number];

/**
 * How far an allowlist trusts what it lists, on DNSWL's scale (none: only avoid outright blocking
 * ... high: never override), so allowlists of other operators read alike (docs/zone-list.md).
 */
export const trustLevels = ['none', 'low', 'medium', 'high'] as const;
export type TrustLevel = (typeof trustLevels)[number];
export const trustLevelSchema = z.enum(trustLevels);

/** Where the score turns a verdict (docs/score.md): the checks decide by it, the schema says it. */
export const verdictThresholds = { poorBelow: 50, goodFrom: 80 } as const;

/** The share of lists that must answer for each confidence (docs/score.md). */
export const confidenceThresholds = { highFrom: 0.9, mediumFrom: 0.6 } as const;

const percent = (share: number) => `${Math.round(share * 100)} %`;

export const verdictSchema = z.enum(['good', 'fair', 'poor', 'unknown']).meta({
  description: `poor under ${verdictThresholds.poorBelow} or with a major listing, good from ${verdictThresholds.goodFrom}; unknown when no list answered. An address without forward-confirmed reverse DNS or on a policy list (Spamhaus PBL and its kin) is at most fair, its IP score at most ${verdictThresholds.goodFrom - 1}.`,
});
export type Verdict = z.infer<typeof verdictSchema>;

export const confidenceSchema = z.enum(['high', 'medium', 'low', 'none']).meta({
  description: `Share of lists that answered: high from ${percent(confidenceThresholds.highFrom)}, medium from ${percent(confidenceThresholds.mediumFrom)}.`,
});
export type Confidence = z.infer<typeof confidenceSchema>;

export const severitySchema = z.enum(severities);

export const scoreFactorSchema = z
  .object({
    /** What moved the score: a listing, a reputation grade, or a reverse DNS finding. */
    kind: z.enum([
      'listing',
      'grade',
      'allowlist',
      'reverse_dns',
      'sender_ip',
      'spf',
      'dmarc',
      'requirement',
    ]),
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
    policy: z.literal(true).optional().meta({
      description:
        'A policy listing: the list says this address should not send mail directly (an end-user or dynamic address, no or generic reverse DNS) but through its provider’s relay, not that it sent spam (Spamhaus PBL and its kin).',
    }),
  })
  .meta({ id: 'Listing' });
export type Listing = z.infer<typeof listingSchema>;

/** A graded list's reading (Mailspike, Sender Score, DNSWL, HostKarma). */
export const gradeSchema = z
  .object({ label: z.string(), points: z.number(), listed: z.boolean() })
  .meta({ id: 'Grade' });
export type Grade = z.infer<typeof gradeSchema>;

/** An allowlist's entry for the target: a code it answered, what it means, the trust it encodes. */
export const allowlistEntrySchema = z
  .object({ code: z.string(), meaning: z.string(), trust: trustLevelSchema })
  .meta({ id: 'AllowlistEntry' });
export type AllowlistEntry = z.infer<typeof allowlistEntrySchema>;

export const listStatusSchema = z
  .enum(['listed', 'allowlisted', 'clean', 'error', 'timeout', 'disabled'])
  .meta({
    description:
      'listed: a documented listing code; allowlisted: an allowlist vouches for the target (good news, never a listing); clean: NXDOMAIN from a list proven honest; error, timeout: no usable answer; disabled: not asked (failed or not yet passed its self-test, needs a key, or does not cover IPv6).',
  });
export type ListStatus = z.infer<typeof listStatusSchema>;

export const listResultSchema = z
  .object({
    zone: z.string().meta({
      description:
        'The zone asked: for an IPv6 address, the list’s IPv6 zone when it has one of its own (nibble format, RFC 5782 §2.4).',
    }),
    name: z.string().meta({
      description: 'The list’s name; for an IPv6 address, its IPv6 side’s when that has its own.',
    }),
    type: z.enum(['ip', 'domain']),
    severity: severitySchema,
    status: listStatusSchema,
    codes: z
      .array(z.string())
      .optional()
      .meta({ description: 'The raw A answers, for listings and errors.' }),
    listings: z.array(listingSchema).optional(),
    grade: gradeSchema.optional(),
    trust: trustLevelSchema.optional().meta({
      description:
        'allowlisted: the trust the allowlist encodes for the target, on DNSWL’s scale (none, low, medium, high), the highest of its entries.',
    }),
    allowlist_entries: z
      .array(allowlistEntrySchema)
      .optional()
      .meta({ description: 'allowlisted: what each code the allowlist answered means.' }),
    reason: z
      .string()
      .optional()
      .meta({ description: 'The list’s TXT record for a listing (RFC 5782 §2.1).' }),
    error: z
      .string()
      .optional()
      .meta({ description: 'Why the status is error, timeout or disabled.' }),
    on_hold: z.literal(true).optional().meta({
      description:
        'The list is on hold (it stopped answering): reported as a timeout without being asked.',
    }),
    not_covered: z.literal(true).optional().meta({
      description:
        'The list does not answer for IPv6 addresses (its operator documents no IPv6 support): reported as disabled with the error "does not cover IPv6", never asked, and counted in not_covered, not in total.',
    }),
    lookup_url: z.string().optional().meta({
      description:
        'listed: the operator’s page about this target (the target filled in), which says why it is listed.',
    }),
    delist_url: z
      .string()
      .optional()
      .meta({ description: 'listed: where the listed party asks the operator for removal.' }),
    key: z.string().optional().meta({
      description:
        'disabled because the list answers only with its operator’s key: the variable that holds it (SPAMHAUS_DQS_KEY, ABUSIX_KEY), which is unset.',
    }),
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
    names: z
      .array(z.string())
      .meta({ description: `The PTR names: the first ${maxListedNames} of them.` }),
    names_total: z.number().int().optional().meta({
      description: 'How many PTR names the address has, when more than names lists.',
    }),
    fcrdns: fcrdnsSchema,
    confirmed: z.array(z.string()).meta({
      description: 'PTR names whose A (IPv4) or AAAA (IPv6) records include the address.',
    }),
    error: z.string().optional(),
  })
  .meta({ id: 'ReverseDns' });
export type ReverseDns = z.infer<typeof reverseDnsSchema>;

/**
 * What every list-based score reports beside the score: the lists' counts, which add up
 * (answered + not_answered + on_hold + disabled = total), and the same in words.
 */
export const listCounts = {
  listed: z.number().int().meta({ description: 'Lists that list the target.' }),
  allowlisted: z.number().int().meta({
    description:
      'Allowlists that vouch for the target: good news, counted in answered, never in listed.',
  }),
  answered: z
    .number()
    .int()
    .meta({ description: 'Lists that gave a usable answer (listed, allowlisted or clean).' }),
  not_answered: z.number().int().meta({
    description: 'Lists asked that gave no usable answer (timeout, SERVFAIL, an error code).',
  }),
  on_hold: z
    .number()
    .int()
    .meta({ description: 'Lists on hold: they stopped answering and were not asked.' }),
  disabled: z.number().int().meta({
    description:
      'Lists not asked: failed or not yet passed their self-test, or answering only with a key that is not set.',
  }),
  needs_key: z.number().int().meta({
    description:
      'Of the disabled lists, those that answer only with a key that is not set (SPAMHAUS_DQS_KEY, ABUSIX_KEY): the operator’s choice, so they lower no confidence.',
  }),
  total: z.number().int().meta({
    description: 'Every list of that type: answered + not_answered + on_hold + disabled.',
  }),
  summary: z.string().meta({
    description:
      'The counts in words: "listed on 2 of 16 lists that answered; 2 did not answer", "not listed on any of 18 lists; allowlisted on DNSWL.org (high trust)".',
  }),
};

/**
 * The counts of an address's result: for an IPv6 address the lists that do not cover IPv6 are
 * counted apart (docs/ipv6.md), so `total` is the lists that cover the address and
 * `lists.length = total + not_covered`.
 */
const addressListCounts = {
  ...listCounts,
  not_covered: z.number().int().meta({
    description:
      'Lists that do not answer for IPv6 addresses (an IPv6 address only; 0 otherwise): in lists with status disabled, not_covered true and error "does not cover IPv6", and not counted in total.',
  }),
  total: z.number().int().meta({
    description:
      'The lists of that type that cover the address: answered + not_answered + on_hold + disabled.',
  }),
  summary: z.string().meta({
    description:
      'The counts in words: "listed on 2 of 16 lists that answered; 2 did not answer", for an IPv6 address "not listed on any of 2 lists; 16 do not cover IPv6".',
  }),
};

export const ipScoreSchema = scoreSchema
  .extend({
    ...addressListCounts,
    lists: z.array(listResultSchema),
    rdns: reverseDnsSchema,
    addresses: z
      .array(z.string())
      .optional()
      .meta({
        description: `The public addresses of a host name target, IPv4 sorted numerically, then IPv6 (RFC 5952 form) sorted numerically: the first ${maxAddressesPerHost}. ip is the one checked: the first IPv4 address, or with none the first IPv6 address.`,
      }),
    addresses_total: z.number().int().optional().meta({
      description: 'How many public addresses the host name has, when more than addresses lists.',
    }),
    checked_at: z.iso.datetime(),
  })
  .meta({ id: 'IpScore', description: 'IP rating and DNSBL result.' });
export type IpScore = z.infer<typeof ipScoreSchema>;

export const ipCheckResultSchema = z.object({
  kind: z.enum(['ipv4', 'ipv6', 'domain']).meta({
    description: 'What the target was: an IPv4 address, an IPv6 address or a host name.',
  }),
  target: z.string().meta({
    description: 'The checked address (IPv6 in RFC 5952 canonical form) or host name (ASCII form).',
    example: '2a0b:4e07:b3::66',
  }),
  ip: z.string().meta({
    description:
      'The address checked (IPv6 in RFC 5952 form): the target, or for a host name its first public IPv4 address, else its first public IPv6 address (ip_score.addresses lists them all).',
  }),
  ptr: z.string().meta({ description: 'The first PTR name, or "".' }),
  ip_score: ipScoreSchema,
});
export type IpCheckResult = z.infer<typeof ipCheckResultSchema>;

/** One address's result in brief, as the domain and pool tools show each address they check. */
export const addressSummarySchema = scoreSchema
  .pick({ score: true, verdict: true, confidence: true })
  .extend({
    ip: z.string().meta({ description: 'The address (IPv6 in RFC 5952 form).' }),
    ...addressListCounts,
    listings: z
      .array(
        z.object({
          zone: z.string(),
          name: z.string(),
          severity: severitySchema,
          detail: z.string(),
          codes: z.array(z.string()).optional().meta({ description: 'The list’s A answers.' }),
          lookup_url: z.string().optional().meta({
            description: 'The operator’s page about this address, which says why it is listed.',
          }),
          delist_url: z
            .string()
            .optional()
            .meta({ description: 'Where to ask the operator for removal.' }),
          policy: z.literal(true).optional().meta({
            description:
              'Every listing of the list is a policy listing: the address should send through its provider’s relay (Spamhaus PBL and its kin), not a report of spam.',
          }),
        }),
      )
      .meta({
        description:
          'The lists that list it, with the meaning of their codes, their most severe listing and where to see why and ask for removal.',
      }),
    allowlists: z
      .array(z.object({ zone: z.string(), name: z.string(), trust: trustLevelSchema }))
      .optional()
      .meta({
        description:
          'The allowlists that vouch for it, with the trust each encodes (good news, never a listing); absent when none does.',
      }),
    unanswered: z.array(z.object({ zone: z.string(), status: z.string() })).meta({
      description:
        'Lists that could not answer (timeout, error, disabled); the lists that do not cover IPv6 are counted in not_covered, not listed here.',
    }),
  })
  .meta({ id: 'AddressSummary' });
export type AddressSummary = z.infer<typeof addressSummarySchema>;

export const mailExchangerSchema = z
  .object({
    exchange: z.string(),
    priority: z.number().int(),
    addresses: z.array(z.string()).meta({
      description: `Public addresses, A then AAAA: IPv4 sorted numerically, then IPv6 (RFC 5952 form) sorted numerically; the first ${maxAddressesPerHost}.`,
    }),
    addresses_total: z.number().int().optional().meta({
      description: 'How many public addresses the host has, when more than are listed.',
    }),
  })
  .meta({ id: 'MailExchanger' });
export type MailExchanger = z.infer<typeof mailExchangerSchema>;

export const dmarcPolicySchema = z.enum(['none', 'quarantine', 'reject']);
export type DmarcPolicy = z.infer<typeof dmarcPolicySchema>;

export const dmarcRecordSchema = z
  .object({
    status: z.enum(['found', 'invalid', 'none', 'multiple', 'unavailable']).meta({
      description:
        'found: a record receivers apply; invalid: a record receivers do not apply (a tag named twice, a value RFC 7489 §6.3 does not allow, no p and no valid rua, §6.6.3), which errors explains; multiple: several v=DMARC1 records, which RFC 7489 §6.6.3 treats as none.',
    }),
    present: z.boolean(),
    record: z
      .string()
      .nullable()
      .meta({
        description: `The record that applies, as published (at most ${maxRecordChars} characters shown).`,
      }),
    policy: dmarcPolicySchema.nullable().meta({
      description:
        'The policy for mail from the checked domain: the p tag (RFC 7489 §6.3), or for a subdomain covered by its organisational domain’s record, that record’s sp tag when it has one.',
    }),
    applied: z.enum(['domain', 'organizational']).nullable().meta({
      description:
        'Whose record applies: the domain’s own, or its organisational domain’s (RFC 7489 §6.6.3); null with none.',
    }),
    domain: z
      .string()
      .nullable()
      .meta({ description: 'The domain whose _dmarc record applies; null with none.' }),
    errors: z.array(z.string()).meta({
      description:
        'Why the record is invalid: the tags and values RFC 7489 §6.3 and §6.4 do not allow.',
    }),
    warnings: z.array(z.string()).meta({
      description:
        'What receivers read differently from what is written: p=none assumed for a record with no valid p but a valid rua (RFC 7489 §6.6.3), unknown tags ignored (§6.3).',
    }),
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
    ip4: z.array(z.string()).meta({
      description:
        'Authorised IPv4 senders, a.b.c.d or a.b.c.d/len (host bits cleared), in walk order.',
    }),
    ip6: z.array(z.string()).meta({
      description:
        'Authorised IPv6 senders, address or address/len (RFC 5952 form, host bits cleared), from ip6 terms and the AAAA records of a and mx terms, in walk order.',
    }),
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

/** The SPF evaluation as a domain result shows it: its addresses are in `ips`, `ranges`, `ip6`. */
export const spfSummarySchema = spfExpansionSchema
  .omit({ ip4: true, ip6: true })
  .extend({
    nonPass: z.array(spfTermAtSchema).meta({
      description: `Mechanisms qualified -, ~ or ?: what they match is no sender (the first ${maxListedTerms}).`,
    }),
    nonPassTotal: z.number().int().optional().meta({
      description: 'How many mechanisms were qualified -, ~ or ?, when more than nonPass lists.',
    }),
    recordTruncated: z
      .literal(true)
      .optional()
      .meta({ description: 'The record is longer than shown.' }),
  })
  .meta({
    id: 'SpfSummary',
    description:
      'The SPF evaluation (RFC 7208) of the domain; the addresses it authorises are in ips, ranges and ip6.',
  });
export type SpfSummary = z.infer<typeof spfSummarySchema>;

/** A sender network of more than 16 addresses, with its size. */
export const senderRangeSchema = z
  .object({
    network: z
      .string()
      .meta({ description: 'a.b.c.d/len, host bits cleared.', example: '198.51.100.0/24' }),
    size: z.number().int().meta({ description: 'Addresses in the range.', example: 256 }),
  })
  .meta({ id: 'SenderRange' });
export type SenderRange = z.infer<typeof senderRangeSchema>;

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
    description: `Sender IPs: single public addresses (SPF ip4/ip6 terms of up to 16 addresses written out, the addresses of a and mx terms, MX hosts' A and AAAA, the A and AAAA fallback), IPv4 sorted numerically first, then IPv6 in RFC 5952 form sorted numerically; at most ${maxListedAddresses} of both together (see ips_total). Each can be sent to POST /ip/v1.`,
    example: ['192.0.3.10', '192.0.3.20', '2a0b:4e07:b3::25'],
  }),
  ips_total: z.number().int().meta({ description: 'How many single sender addresses were found.' }),
  ips_truncated: z.boolean().meta({
    description: `True when ips lists only the first ${maxListedAddresses} of ips_total.`,
  }),
  ranges: z.array(senderRangeSchema).meta({
    description: `IPv4 SPF networks of more than 16 addresses, with their sizes, sorted; at most ${maxListedNetworks} (see ranges_total). Not checked address by address: addresses.ranges says so. IPv6 networks are in ip6.`,
  }),
  ranges_total: z.number().int(),
  exists: z.literal(true).meta({
    description:
      'Always true: a domain with no public address is a 400 invalid_target (kept for clients of earlier results).',
  }),
  ip6: z.array(z.string()).meta({
    description: `IPv6 SPF networks of more than 16 addresses (larger than a /124), as address/len in RFC 5952 form, sorted; at most ${maxListedNetworks} (see ip6_total). Apart from ranges because their sizes pass JSON's safe integers. Not checked address by address.`,
    example: ['2a0b:4e07:b3::/48'],
  }),
  ip6_total: z.number().int(),
  mx: z
    .array(mailExchangerSchema)
    .meta({ description: 'The MX hosts looked up: at most 10, most preferred first.' }),
  mx_total: z.number().int().meta({ description: 'MX records the domain publishes.' }),
  spf: spfSummarySchema,
  dmarc: dmarcRecordSchema,
  domain_score: domainScoreSchema,
  addresses: z.object({
    checked: z.number().int().meta({
      description:
        'Single addresses of ips checked on the IP lists (at most 16: the first of each family, half the room for each when both have more); an IPv6 address only on the lists that cover IPv6.',
    }),
    listed: z.number().int(),
    not_checked: z
      .array(z.string())
      .meta({ description: 'Every address of ips not checked: past the bound.' }),
    ranges: z
      .object({ checked: z.number().int(), how: z.string() })
      .meta({ description: 'Ranges are not checked address by address; this says so and why.' }),
    results: z.array(addressSummarySchema),
  }),
  notes: z
    .array(z.string())
    .meta({ description: 'Where a bound cut the check short (MX hosts, addresses, queries).' }),
  checked_at: z.iso.datetime(),
});
export type DomainCheckResult = z.infer<typeof domainCheckResultSchema>;

export const poolStopReasonSchema = z
  .enum([
    'saturated',
    'no_addresses',
    'sources_failed',
    'deadline',
    'query_budget',
    'address_limit',
  ])
  .meta({
    description:
      'Why discovery stopped: saturated (no new address for long enough that one still missing would very likely have shown up), no_addresses (NXDOMAIN or NODATA, RFC 2308), sources_failed (every source kept failing), deadline, query_budget, address_limit (as many public addresses as one pool check takes, POOL_MAX_IPS).',
  });
export type PoolStopReason = z.infer<typeof poolStopReasonSchema>;

/** What a pool discovery found, as the discover route answers it (beside `ips` and `results`). */
export const poolDiscoveryFields = {
  pool: z.string(),
  canonicalName: z.string().optional().meta({
    description:
      'The end of the alias chain, when pool is a CNAME (RFC 1034 §3.6.2) to a public name.',
  }),
  rounds: z.number().int(),
  queries: z.number().int().meta({
    description:
      'A and AAAA queries about the pool; finding aliases and name servers is not counted.',
  }),
  saturated: z.boolean(),
  stopReason: poolStopReasonSchema,
  sources: z.object({ resolver: z.boolean(), authoritative: z.number().int() }).meta({
    description:
      'Whether the configured resolvers responded, and how many of the zone’s public name servers were asked (which of them answered is not said).',
  }),
  notes: z.array(z.string()),
};

export const poolDiscoverResultSchema = z.object({
  kind: z.literal('discover'),
  ...poolDiscoveryFields,
  exists: z
    .literal(true)
    .meta({ description: 'Always true: a pool without a public address is a 400 invalid_target.' }),
  ips: z.array(z.string()).meta({
    description:
      'Public addresses seen, IPv4 sorted numerically, then IPv6 (RFC 5952 form) sorted numerically: at most POOL_MAX_IPS of both together.',
  }),
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
  /**
   * Public addresses seen, at most `maxAddresses`: IPv4 sorted numerically, then IPv6 (RFC 5952
   * form) sorted numerically.
   */
  addresses: z.array(z.string()),
});
export type PoolDiscovery = z.infer<typeof poolDiscoverySchema>;
