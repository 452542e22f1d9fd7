import { z } from '@hono/zod-openapi';
import { vias } from '../../reports/index.js';
import { verdictSchema } from '../../reputation/index.js';
import { webhookFormats } from '../../webhooks/index.js';
import { captchaFields, quotaStatusSchema } from '../common/index.js';

/**
 * The reports routes' request and answer bodies (docs/reports.md, "API"): the zod schemas are the
 * types the routes build and the OpenAPI document.
 */

/** The OpenAPI tag of every reports route. */
export const tags = ['Reports'];

/** The demo's domain (`npm run demo`), as the other tools' examples. */
const exampleDomain = 'demo-sender.com';
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const instant = z.iso.datetime();

export const inboxIdParams = z.object({
  id: z.string().openapi({
    param: { name: 'id', in: 'path' },
    description: 'The inbox id (128 random bits, base64url).',
  }),
});

export const viewTokenParams = z.object({
  view_token: z.string().openapi({
    param: { name: 'view_token', in: 'path' },
    description: 'The view_url’s secret, which POST /reports/v1 answered.',
  }),
});

export const periodQuery = z.object({
  from: date.optional().openapi({
    param: { name: 'from', in: 'query' },
    description: 'The first day (UTC), YYYY-MM-DD: 29 days before `to` when absent.',
    example: '2025-06-01',
  }),
  to: date.optional().openapi({
    param: { name: 'to', in: 'query' },
    description: 'The last day (UTC), YYYY-MM-DD, included: today when absent.',
    example: '2025-06-30',
  }),
});

export const periodSchema = z.object({ from: date, to: date }).openapi('ReportsPeriod', {
  description:
    'The days (UTC, both included) whose reports are summed: a report counts on the day its period mostly covers (docs/reports.md).',
});

export const createInboxRequest = z
  .object({
    domain: z.string().max(1024).openapi({
      description:
        'The domain whose reports the inbox takes (and its subdomains’): a public host name, IDNA accepted.',
      example: exampleDomain,
    }),
    lang: z.enum(['en', 'ru']).optional().openapi({
      description:
        'The dashboard’s language by default: en or ru; absent, ?lang= or Accept-Language.',
    }),
    ...captchaFields,
  })
  .openapi('ReportsInboxCreateRequest', { example: { domain: exampleDomain } });

const suggestedRecordSchema = z
  .object({
    name: z.string().openapi({ example: `_dmarc.${exampleDomain}` }),
    type: z.literal('TXT'),
    current: z.string().nullable().openapi({ description: 'The record there now, or null.' }),
    value: z.string().nullable().openapi({
      description: 'The record to publish; null when the DNS did not answer.',
      example: 'v=DMARC1; p=none; rua=mailto:dmarc+tZerZe3mpmn2SQJuHHQZDA@reports.example.org',
    }),
    change: z.enum(['create', 'update', 'none']).nullable().openapi({
      description:
        'create: none is there; update: the address (or a valid record) is added; none: it names this inbox already; null: the DNS did not answer.',
    }),
    detail: z.string().nullable(),
  })
  .openapi('ReportsSuggestedRecord');

const authorizationSchema = z
  .object({
    needed: z.boolean().openapi({
      description:
        'False when the address’s domain is within the inbox domain’s organisational domain (RFC 7489 §7.1).',
    }),
    authorized: z.boolean().nullable().openapi({
      description: 'Whether the record is there; null when the DNS did not answer.',
    }),
    record: z
      .object({ name: z.string(), type: z.literal('TXT'), value: z.string() })
      .nullable()
      .openapi({
        description:
          'The record the report address’s operator publishes: `<domain>._report._dmarc.<address domain>` TXT v=DMARC1.',
      }),
    wildcard: z.string().nullable().openapi({
      description: 'The same for every domain at once: `*._report._dmarc.<address domain>`.',
    }),
    detail: z.string(),
  })
  .openapi('ReportsAuthorization', {
    description:
      'RFC 7489 §7.1: whether receivers will send this domain’s aggregate reports to the address’s domain at all.',
  });

/** What the DNS says of an inbox: at creation and on verify. */
const dnsFields = {
  address: z.string().nullable().openapi({
    description:
      'Where reports are mailed: the subaddress of REPORTS_ADDRESS (RFC 5233); null when the operator has not set REPORTS_ADDRESS, and then only uploads work.',
    example: 'dmarc+tZerZe3mpmn2SQJuHHQZDA@reports.example.org',
  }),
  verified: z.boolean().openapi({
    description:
      'The domain’s own DMARC record, or its TLS-RPT record, names the address in rua=; or the inbox was created with OPERATOR_TOKEN. Mail is taken only once verified; uploads always.',
  }),
  suggested: z
    .object({ dmarc: suggestedRecordSchema, tls_rpt: suggestedRecordSchema })
    .nullable()
    .openapi({
      description:
        'The records to publish, built from the current ones (every other tag and destination kept); null without an address.',
    }),
  authorization: authorizationSchema.nullable().openapi({
    description: 'Null without an address.',
  }),
};

export const createdInboxSchema = z
  .object({
    id: z.string().openapi({ example: 'tZerZe3mpmn2SQJuHHQZDA' }),
    domain: z.string().openapi({ example: exampleDomain }),
    key: z.string().openapi({
      description:
        'The inbox’s key, shown this once (256 random bits): Authorization: Bearer <key> on every route but the dashboard.',
    }),
    view_url: z.string().openapi({
      description: 'The dashboard, for anyone holding the link (no key).',
    }),
    lang: z.enum(['en', 'ru']),
    ...dnsFields,
  })
  .extend(quotaStatusSchema.shape)
  .openapi('ReportsInboxCreated');

export const verifiedInboxSchema = z
  .object({ id: z.string(), domain: z.string(), ...dnsFields })
  .openapi('ReportsInboxVerified');

export const takenReportSchema = z
  .object({
    kind: z.enum(['dmarc', 'tls']),
    org: z.string().openapi({ example: 'google.com' }),
    report_id: z.string(),
    begin: instant,
    end: instant,
    records: z.number().int().openapi({ description: 'DMARC: records; TLS: policies.' }),
    messages: z
      .number()
      .int()
      .openapi({ description: 'DMARC: messages (the sum of row/count); TLS: sessions.' }),
    duplicate: z.boolean().openapi({
      description:
        'The inbox had this report already (same kind, org and report id): nothing changed.',
    }),
  })
  .openapi('ReportsTakenReport');

export const uploadAnswerSchema = z
  .object({ received: z.array(takenReportSchema) })
  .openapi('ReportsUploaded');

export const receivedSchema = z
  .object({
    period: periodSchema,
    reports: z.array(
      takenReportSchema
        .omit({ duplicate: true })
        .extend({ received_at: instant, via: z.enum(vias as [string, ...string[]]) }),
    ),
    more: z.boolean().openapi({ description: 'More reports than `limit` fell in the period.' }),
  })
  .openapi('ReportsReceived');

export const receivedQuery = periodQuery.extend({
  limit: z
    .string()
    .optional()
    .openapi({
      param: { name: 'limit', in: 'query' },
      description: 'The most reports listed, newest first: 1 to 1000, 100 by default.',
    }),
});

const reputationSchema = z
  .object({
    verdict: verdictSchema,
    score: z.number().int(),
    listed_on: z.array(z.object({ zone: z.string(), name: z.string() })),
    checked_at: instant,
    token: z.string().openapi({
      description: 'The IP check’s token: its result and share page under /ip/v1/{token}.',
    }),
  })
  .openapi('ReportsSourceReputation');

const sourceSchema = z
  .object({
    ip: z.string(),
    messages: z.number().int(),
    pass: z.number().int().openapi({ description: 'Messages whose DMARC result was pass.' }),
    fail: z.number().int(),
    spf_aligned: z.number().int(),
    dkim_aligned: z.number().int(),
    header_from: z.array(z.string()).openapi({
      description: 'The header From domains it sent as, most messages first.',
    }),
    reporters: z.array(z.string()),
    ptr: z.string().nullable().openapi({
      description: 'The first PTR name ("" for none) from its IP check; null when not checked yet.',
    }),
    reputation: reputationSchema.nullable().openapi({
      description:
        'Its IP check, as the IP tool caches it (RESULT_TTL_S), for the sources that matter (the first 20 by messages, and each failing more than 1 % of the messages); null until one is done, never a guess.',
    }),
  })
  .openapi('ReportsSource');

export const summarySchema = z
  .object({
    id: z.string(),
    domain: z.string(),
    verified: z.boolean(),
    period: periodSchema,
    retention_days: z.number().int().openapi({
      description:
        'REPORTS_RETENTION_DAYS: reports are kept this long from receipt, so a period reaching further back holds only what is left.',
    }),
    dmarc: z.object({
      reports: z.number().int(),
      messages: z.number().int().openapi({ description: 'The sum of row/count: messages.' }),
      pass: z.number().int(),
      fail: z.number().int(),
      pass_rate: z.number().nullable().openapi({
        description: 'pass / messages, from 0 to 1 (4 decimals); null without messages.',
      }),
      spf_aligned: z.number().int(),
      dkim_aligned: z.number().int(),
      dispositions: z.object({
        none: z.number().int(),
        quarantine: z.number().int(),
        reject: z.number().int(),
      }),
      reporters: z.array(
        z.object({
          org: z.string(),
          reports: z.number().int(),
          messages: z.number().int(),
          pass: z.number().int(),
        }),
      ),
      daily: z.array(z.object({ date, pass: z.number().int(), fail: z.number().int() })),
    }),
    sources: z.array(sourceSchema).openapi({
      description: 'Most messages first: the first 100 (sources.csv lists every one).',
    }),
    more_sources: z.boolean().openapi({ description: 'The period has more than 100 sources.' }),
    tls: z.object({
      reports: z.number().int(),
      sessions: z.object({ success: z.number().int(), failure: z.number().int() }),
      policies: z.array(
        z.object({
          type: z.string(),
          domain: z.string(),
          success: z.number().int(),
          failure: z.number().int(),
        }),
      ),
      failures: z.array(
        z.object({
          result_type: z.string(),
          receiving_mx_hostname: z.string().nullable(),
          sending_mta_ip: z.string().nullable(),
          count: z.number().int(),
        }),
      ),
    }),
  })
  .openapi('ReportsSummary');

export type Summary = z.infer<typeof summarySchema>;
export type SummarySource = z.infer<typeof sourceSchema>;

const autoWatchSchema = z
  .object({
    webhook_url: z.string().max(2048).optional().openapi({
      description:
        'Where the watches’ alerts go, as a watch’s webhook_url (a public http or https URL). Give it or email.',
    }),
    email: z.string().max(254).optional().openapi({
      description: 'Where the alerts are e-mailed, as a watch’s email (needs SMTP_URL).',
    }),
    webhook_format: z
      .string()
      .max(16)
      .optional()
      .openapi({
        description: `With webhook_url: ${webhookFormats.join(', ')}, as a watch’s.`,
      }),
    min_messages: z.number().int().min(1).max(1_000_000_000).optional().openapi({
      description:
        'A source is watched once it passed DMARC with at least this many messages in the last 30 days (100 by default).',
    }),
  })
  .openapi('ReportsAutoWatch');

export const updateInboxRequest = z
  .object({
    auto_watch: autoWatchSchema.nullable().openapi({
      description: 'The settings, or null to turn them off.',
    }),
  })
  .openapi('ReportsInboxUpdateRequest', {
    example: { auto_watch: { webhook_url: 'https://hooks.example.com/reputation' } },
  });

export const storedAutoWatchSchema = z
  .object({
    webhook_url: z.string().nullable(),
    webhook_format: z.string().nullable(),
    email: z.string().nullable(),
    min_messages: z.number().int(),
  })
  .openapi('ReportsAutoWatchSettings');

export const updatedInboxSchema = z
  .object({
    id: z.string(),
    domain: z.string(),
    auto_watch: storedAutoWatchSchema.nullable(),
    webhook_secret: z.string().optional().openapi({
      description:
        'Shown once, when webhook_url is new: the whsec_ secret every delivery of the inbox (its watches’ events and reports.source_failing) is signed with (Standard Webhooks).',
    }),
    email_confirmed: z.boolean().optional().openapi({
      description:
        'With email: whether the address confirmed. A new one is sent a confirmation link first (valid 24 hours); nothing else goes to it before.',
    }),
  })
  .openapi('ReportsInboxUpdated');
