import { z } from 'zod';
import { severities } from '../results/index.js';
import { keyVariables, zoneTypeSchema } from './zones.js';

/**
 * What `GET {BASE_PATH}/lists` shows of the lists, as zod schemas: the zone monitor builds these
 * values (`z.infer`) and the route documents them in OpenAPI, from the same schemas. Plain zod
 * with `.meta()`, as results/result-schemas.ts: nothing here knows of HTTP.
 */

export const listStateSchema = z.enum(['active', 'on_hold', 'disabled']).meta({
  description:
    'active: proven to answer honestly, its answers count; on_hold: it stopped answering and is ' +
    'not asked until a background probe hears it answer a real look-up again; disabled: it ' +
    'failed its self-test, has not proven itself yet, or answers only with a key that is not set.',
});
export type ListState = z.infer<typeof listStateSchema>;

/** Whether the service can answer: it is configured while at least one list is proven honest. */
export const serviceReadinessSchema = z.object({
  configured: z.boolean().meta({
    description: 'At least one list is proven to answer honestly: the tools can answer.',
  }),
  reason: z.string().optional().meta({
    description: 'Why not configured, and what to change; present only when configured is false.',
  }),
});
export type ServiceReadiness = z.infer<typeof serviceReadinessSchema>;

/** One side of a list: the list's own fields (its IPv4 side, for an ip list), or its IPv6 side. */
const sideHealthSchema = z.object({
  state: listStateSchema,
  reason: z.string().meta({ description: 'Why the list is in this state, in plain words.' }),
  test_entry: z.string().nullable().meta({
    description:
      'The documented test entry its self-test asks (null: its operator documents none).',
    example: '127.0.0.2',
  }),
  last_self_test: z
    .string()
    .nullable()
    .meta({ description: 'When its last self-test finished (ISO 8601), or null.' }),
  last_self_test_result: z.enum(['passed', 'failed', 'inconclusive']).nullable(),
  answers_last_hour: z.number().int().meta({
    description: 'Queries to the list that got an answer (NXDOMAIN included) in the last hour.',
  }),
  timeouts_last_hour: z
    .number()
    .int()
    .meta({ description: 'Queries to the list that got no answer in the last hour.' }),
  latency_ms: z.object({ p50: z.number().nullable(), p95: z.number().nullable() }).meta({
    description: 'Answer time on the wire over the last hour; null without answers.',
  }),
});
export type SideHealth = z.infer<typeof sideHealthSchema>;

/**
 * The IPv6 side of a list that answers for IPv6 addresses: the zone it is asked under, where its
 * operator documents IPv6 support, and its own state (list-sides.ts).
 */
export const ipv6SideHealthSchema = z
  .object({
    zone: z.string().meta({
      description: 'The zone asked about IPv6 addresses (nibble format, RFC 5782 §2.4).',
      example: 'zen.spamhaus.org',
    }),
    name: z.string(),
    source: z.string().meta({ description: "Where the list's operator documents IPv6 support." }),
    ...sideHealthSchema.shape,
  })
  .meta({
    id: 'ListIpv6Side',
    description:
      'The IPv6 side of a list whose operator documents IPv6 support (null when the list does not ' +
      'cover IPv6: its results for an IPv6 address say "does not cover IPv6"), proven on its own ' +
      'by its IPv6 test entry (::ffff:7f00:2 unless the operator documents another); its traffic ' +
      "figures are its zone's, both families together when that is the list's own zone.",
  });

/** Text in the pages' two languages (docs/pages.md). */
const bilingualSchema = z.object({ en: z.string(), ru: z.string() });

/** What the zone list says of a list: what it lists, on what terms, where to look it up. */
export const catalogueEntrySchema = z.object({
  severity: z.enum(severities).meta({
    description: 'How much a listing matters to receivers: major, minor or info.',
  }),
  allowlist: z.boolean().meta({
    description: 'An allowlist: a hit vouches for the target and is never a listing.',
  }),
  key: z.enum(keyVariables).nullable().meta({
    description:
      'The variable holding the operator’s key the list answers only with (null: it needs none); without it the list is disabled and never asked.',
  }),
  lists: bilingualSchema
    .nullable()
    .meta({ description: 'What the list lists, in English and Russian.' }),
  policy: bilingualSchema.extend({ source: z.string().optional() }).nullable().meta({
    description:
      'Its usage terms (free volume, registration or key, commercial use), in English and Russian; source: the operator’s page stating them.',
  }),
  source: z
    .string()
    .nullable()
    .meta({ description: 'The operator’s documentation its return codes come from.' }),
  lookup_url: z.string().nullable().meta({
    description:
      'The operator’s page about one target, {ip}, {domain} or {target} standing for it (results fill it in as lookup_url).',
    example: 'https://check.spamhaus.org/listed/?searchterm={target}',
  }),
  delist_url: z
    .string()
    .nullable()
    .meta({ description: 'Where a listed party asks the operator for removal.' }),
});
export type CatalogueEntry = z.infer<typeof catalogueEntrySchema>;

/**
 * One list as `GET /lists` shows it: what the zone list says of it, and its health. Its own
 * fields are its primary side (IPv4 for an ip list); `ipv6` is its IPv6 side, or null when the
 * list does not cover IPv6.
 */
export const listHealthSchema = z
  .object({
    zone: z.string().meta({ example: 'zen.spamhaus.org' }),
    name: z.string().meta({ example: 'Spamhaus ZEN' }),
    type: zoneTypeSchema,
    ...catalogueEntrySchema.shape,
    ...sideHealthSchema.shape,
    ipv6: ipv6SideHealthSchema.nullable().meta({
      description:
        'Its IPv6 coverage: the IPv6 side of a list whose operator documents IPv6 support, or null when it does not cover IPv6.',
    }),
  })
  .meta({ id: 'ListHealth' });
export type ListHealth = z.infer<typeof listHealthSchema>;
