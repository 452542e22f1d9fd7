import { z } from 'zod';
import bundledZones from '../../../assets/dnsbl-zones.json' with { type: 'json' };
import { isIpv6Text } from '../../lib/index.js';
import { severities, type Severity, trustLevels } from '../results/index.js';

export type { TrustLevel } from '../results/index.js';

/**
 * The DNSBL zone list: which lists are asked, and what each of their answers means. Following
 * haraka-plugin-dns-list, a return code a zone does not document is never read as a listing.
 */

const ipv4InLoopback = z
  .string()
  .regex(
    /^127(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/,
    'a return code is an address inside 127.0.0.0/8',
  );

const codeMeaningObject = z.object({
  meaning: z.string().min(1),
  /**
   * The meaning in Russian, the pages' other language (docs/pages.md): a meaning written out
   * carries it, so a Russian page, card or badge never shows the English (src/share/result-texts.ts).
   */
  ru: z.string().min(1),
  /** Overrides the zone's severity for this code (Spamhaus PBL is `info` inside the `major` ZEN). */
  severity: z.enum(severities).optional(),
  /** Overrides the zone's score weight for this code. */
  weight: z.number().min(0).max(100).optional(),
  /** On an allowlist: the trust the code encodes. */
  trust: z.enum(trustLevels).optional(),
  /**
   * `policy`: the list says the address should not send mail directly (an end-user or dynamic
   * address, no or generic reverse DNS), not that it sent spam (Spamhaus PBL and its kin,
   * docs/zone-list.md#policy-listings).
   */
  kind: z.enum(['policy']).optional(),
});
/**
 * A meaning written out (with its Russian), or as a bare English string (`"127.0.0.2": "SBL"`), as
 * a zone list of before the catalogue writes it: that one has no Russian, and shows in English.
 */
function writtenOutOrBare<Meaning extends { meaning: string; ru: string }>(
  object: z.ZodType<Meaning>,
) {
  return z.union([
    object,
    z
      .string()
      .min(1)
      .transform((meaning) => ({ meaning }) as Omit<Meaning, 'ru'> & { ru?: string }),
  ]);
}

const codeMeaningSchema = writtenOutOrBare(codeMeaningObject);
export type CodeMeaning = z.infer<typeof codeMeaningSchema>;

/** An error code's meaning, with its Russian text when written out. */
const errorMeaningObject = z.object({
  meaning: z.string().min(1),
  ru: z.string().min(1),
});
const errorMeaningSchema = writtenOutOrBare(errorMeaningObject);
export type ErrorMeaning = z.infer<typeof errorMeaningSchema>;

/** Text in English and Russian, the two languages of the pages (docs/pages.md). */
const bilingual = z.object({ en: z.string().min(1), ru: z.string().min(1) });

/** Graded lists answer with a grade, decoded by name (see grades.ts), not with a yes/no listing. */
export const gradeDecoders = ['mailspike-rep', 'senderscore', 'dnswl', 'hostkarma'] as const;
export type GradeDecoder = (typeof gradeDecoders)[number];

/**
 * docs/DESIGN.md asks at least `zone`, `type`, `name` and `severity` of an entry; everything else has
 * a default, and keys this service does not know are ignored, so a zone list written for another
 * checker loads. Without a code table, RFC 5782 §2.1's convention holds: an answer in
 * 127.0.0.2-127.0.0.254 is a listing (see return-codes.ts).
 */
const zoneName = z
  .string()
  .regex(/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}$/, 'a lowercase DNS zone name');

/** The variables a list's key may come from: each is one operator's account key. */
export const keyVariables = ['SPAMHAUS_DQS_KEY', 'ABUSIX_KEY'] as const;
export type KeyVariable = (typeof keyVariables)[number];

/**
 * A list that answers only with its operator's key: the variable the key comes from, and the name
 * the list is asked under with `{key}` where the key goes (`{key}.combined.mail.abusix.zone`).
 */
const keySchema = z.object({
  variable: z.enum(keyVariables),
  query: z
    .string()
    .regex(
      /^\{key\}\.([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}$/,
      'a zone name with {key} as its first label',
    ),
});

/** `{ip}`, `{domain}` or `{target}`: where a lookup page takes the checked target. */
export const lookupPlaceholder = /\{(ip|domain|target)\}/g;

/** A page of the operator that shows a target's listing, with the target's placeholder in it. */
const lookupUrl = z
  .string()
  .refine(
    (text) =>
      text.match(lookupPlaceholder) !== null &&
      !/[{}]/.test(text.replace(lookupPlaceholder, '')) &&
      URL.canParse(text.replace(lookupPlaceholder, 'x')),
    'an http(s) URL with {ip}, {domain} or {target} where the target goes',
  );

/** What a lookup URL's placeholders accept: an IP list takes addresses, a domain list names. */
const placeholdersOf = (url: string) => [...url.matchAll(lookupPlaceholder)].map((m) => m[1]);

/** An IPv6 test entry, in any RFC 4291 text form (RFC 5782 §5 writes `::FFFF:7F00:2`). */
const ipv6Entry = z.string().refine(isIpv6Text, 'an IPv6 address');

/**
 * The list answers for IPv6 addresses, asked in the nibble format of RFC 5782 §2.4. Set only where
 * the list's operator documents it: `source` is that page. `zone`: where the list answers for
 * IPv6 when that is not its own zone (Spam Eating Monkey's SEM-IPV6BL), and `name` what that
 * zone is called. `selfTest`: the IPv6 test
 * entries, by default RFC 5782 §5's `::FFFF:7F00:2` (listed) and `::FFFF:7F00:1` (not listed);
 * `answers` as for IPv4, and without it any code the list documents as a listing passes.
 */
const ipv6Schema = z.object({
  source: z.url(),
  zone: zoneName.optional(),
  name: z.string().min(1).optional(),
  selfTest: z
    .object({
      listed: ipv6Entry.nullable().optional(),
      answers: z.array(ipv4InLoopback).min(1).optional(),
      notListed: ipv6Entry.nullable().optional(),
      source: z.url().optional(),
    })
    .optional(),
});

/** What a list lists: addresses (`ip`) or domains. */
export const zoneTypeSchema = z.enum(['ip', 'domain']);

const zoneSchema = z
  .object({
    zone: zoneName,
    name: z.string().min(1),
    type: zoneTypeSchema,
    severity: z.enum(severities),
    /** Points a listing takes off the score of 100 (before a code's own weight); default by severity. */
    weight: z.number().min(0).max(100).optional(),
    delistUrl: z.url().optional(),
    /** Where the code table comes from. */
    source: z.url().optional(),
    /** What the list lists, in English and Russian. */
    lists: bilingual.optional(),
    /** Usage terms: free volume, registration or key, commercial use; `source` where they are stated. */
    policy: bilingual.extend({ source: z.url().optional() }).optional(),
    /** The operator's page for one target, `{ip}`, `{domain}` or `{target}` standing for it. */
    lookupUrl: lookupUrl.optional(),
    /** The list answers only with a key (never asked without it): see `keySchema`. */
    key: keySchema.optional(),
    /** An allowlist: a hit vouches for the target and is never a listing. */
    allowlist: z.boolean().optional(),
    /** Spamhaus Data Query Service label: with a key the zone is asked as `<key>.<dqs>.dq.spamhaus.net`. */
    dqs: z
      .string()
      .regex(/^[a-z]+$/)
      .optional(),
    /** Exact return codes that are listings. */
    codes: z.record(ipv4InLoopback, codeMeaningSchema).optional(),
    /** Return codes whose last octet is a bitmask (SURBL, URIBL): key is the bit value. */
    bitmask: z.record(z.string().regex(/^(1|2|4|8|16|32|64|128)$/), codeMeaningSchema).optional(),
    /** Answers the zone documents as errors (query refused, querier blocked, wrong query type). */
    errors: z.record(ipv4InLoopback, errorMeaningSchema).optional(),
    grade: z.enum(gradeDecoders).optional(),
    /**
     * RFC 5782 §5 test entries: `listed` must answer, `notListed` must not. Defaults: 127.0.0.2 /
     * 127.0.0.1 for IP lists, `test` / `invalid` for domain lists; `listed: null` where the list's
     * operator documents no positive test entry, `notListed: null` where it answers for 127.0.0.1.
     * `answers` are the codes the operator documents for `listed` (any of them passes; SURBL's
     * test.surbl.org answers every bit, 127.0.0.254, which no real listing does); without it any
     * code the zone documents as a listing passes. `source` is where the operator documents it.
     */
    selfTest: z
      .object({
        listed: z.string().nullable().optional(),
        answers: z.array(ipv4InLoopback).min(1).optional(),
        notListed: z.string().nullable().optional(),
        source: z.url().optional(),
      })
      .optional(),
    ipv6: ipv6Schema.optional(),
  })
  .refine(
    (zone) => [zone.codes, zone.bitmask, zone.grade].filter((x) => x !== undefined).length <= 1,
    { message: 'a zone has at most one of codes, bitmask or grade' },
  )
  .refine((zone) => zone.ipv6 === undefined || zone.type === 'ip', {
    message: 'only an ip list answers for IPv6 addresses',
    path: ['ipv6'],
  })
  .refine((zone) => zone.key === undefined || zone.key.query.endsWith(`.${zone.zone}`), {
    message: 'a keyed query is the zone with the key in front of it',
    path: ['key', 'query'],
  })
  // The Data Query Service is how the engine asks Spamhaus with a key (dnsbl.ts queryZone).
  .refine(
    (zone) =>
      zone.key?.variable !== 'SPAMHAUS_DQS_KEY' ||
      (zone.dqs !== undefined && zone.zone === `${zone.dqs}.dq.spamhaus.net`),
    { message: 'a list keyed by SPAMHAUS_DQS_KEY is <dqs>.dq.spamhaus.net', path: ['key'] },
  )
  .refine(
    (zone) =>
      zone.lookupUrl === undefined ||
      placeholdersOf(zone.lookupUrl).every(
        (name) => name === 'target' || name === (zone.type === 'ip' ? 'ip' : 'domain'),
      ),
    { message: 'an ip list looks up {ip}, a domain list {domain}', path: ['lookupUrl'] },
  )
  .refine(
    (zone) =>
      zone.allowlist === true ||
      Object.values({ ...zone.codes, ...zone.bitmask }).every((code) => code.trust === undefined),
    { message: 'only an allowlist code carries a trust level', path: ['codes'] },
  )
  .transform((zone) => ({ ...zone, weight: zone.weight ?? defaultWeights[zone.severity] }));

/** Weights of zones that give none: what the default list gives most zones of each severity. */
export const defaultWeights: Record<Severity, number> = { major: 30, minor: 10, info: 0 };

export type DnsblZone = z.infer<typeof zoneSchema>;

export const zoneListSchema = z.array(zoneSchema).min(1);

/** Parses a zone list, naming the first offending entry on failure. */
export function parseZoneList(json: unknown): DnsblZone[] {
  const result = zoneListSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`invalid zone list at ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return result.data;
}

let bundled: DnsblZone[] | undefined;

/**
 * The zone list shipped in assets/dnsbl-zones.json, imported as data (bundled on Workers, where
 * there is no file system) and parsed once. Node reads DNSBL_ZONES_FILE instead when it is set
 * (src/node/zone-file.ts).
 */
export function bundledZoneList(): DnsblZone[] {
  bundled ??= parseZoneList(bundledZones);
  return bundled;
}

/** A fresh copy of the bundled zone list (tests and fixtures change their copies). */
export async function loadZoneList(): Promise<DnsblZone[]> {
  return parseZoneList(bundledZones);
}
