import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  ApiError,
  type AppEnv,
  type ErrorCode,
  errorResponses,
  serveRoute,
  storeErrors,
} from '../../http/index.js';
import { readBounded } from '../../lib/index.js';
import type { IntakeRefusal } from '../../reports/index.js';
import type { ReportsToolDeps } from './deps.js';
import { inboxKeyErrors, inboxKeySecurity, keyedInbox } from './inbox-key.js';
import { inboxIdParams, tags, uploadAnswerSchema } from './schemas.js';

/**
 * POST /reports/v1/{id}/upload: one report file or one message as the body, its type from
 * Content-Type (docs/reports.md, "Upload"). The body is bounded by REPORTS_MAX_BYTES, not by the
 * JSON routes' 16 KiB: a declared length past it is refused before a byte is read, and a body
 * sent without one is counted as it streams in and refused the moment it passes. All or nothing:
 * when one report of the body is refused, none is kept.
 */

/** What an upload's intake may refuse with (the mail doors' two refusals never come here). */
export const uploadErrors = [
  'invalid_report',
  'report_too_large',
  'unsupported_media_type',
  'report_domain_mismatch',
] as const satisfies readonly ErrorCode[];

/** The media types an upload is documented with; any other is 415. */
const bodyTypes = [
  'application/xml',
  'text/xml',
  'application/gzip',
  'application/zip',
  'application/tlsrpt+json',
  'application/tlsrpt+gzip',
  'application/json',
  'message/rfc822',
] as const;

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(
    'report_too_large',
    `the body is larger than ${maxBytes} bytes (REPORTS_MAX_BYTES)`,
  );
}

/** The body's bytes, refused as soon as they pass `maxBytes`. */
export async function boundedBody(c: Context, maxBytes: number): Promise<Uint8Array> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  return readBounded(c.req.raw.body, maxBytes, () => tooLarge(maxBytes));
}

function refusal(outcome: IntakeRefusal): ApiError {
  const code = (uploadErrors as readonly string[]).includes(outcome.code)
    ? (outcome.code as (typeof uploadErrors)[number])
    : 'invalid_report';
  return new ApiError(code, outcome.reason);
}

export function addUpload(app: OpenAPIHono<AppEnv>, deps: ReportsToolDeps): void {
  const { inboxes, intake, maxBytes } = deps.reports;
  serveRoute(
    app,
    createRoute({
      method: 'post',
      path: '/{id}/upload',
      operationId: 'uploadReports',
      tags,
      summary: 'Upload one report file, or one e-mail message with reports attached',
      description:
        'A DMARC aggregate report (XML, gzip, zip), a TLS report (JSON, gzip) or a message (message/rfc822) whose attachments are any of these, at most REPORTS_MAX_BYTES (10 MB) and expanding to no more. Each report must be about the inbox’s domain or a subdomain of it. All or nothing: a refused report keeps the whole body out. A report the inbox has (same kind, org and report id) answers duplicate: true.',
      security: inboxKeySecurity,
      request: {
        params: inboxIdParams,
        body: {
          required: true,
          content: Object.fromEntries(
            bodyTypes.map((type) => [type, { schema: z.string().openapi({ format: 'binary' }) }]),
          ),
        },
      },
      responses: {
        201: {
          description: 'The reports taken in',
          content: { 'application/json': { schema: uploadAnswerSchema } },
        },
        ...errorResponses('uploadReports', [...inboxKeyErrors, ...uploadErrors, ...storeErrors]),
      },
    }),
    async (c) => {
      const inbox = await keyedInbox(c, inboxes);
      const body = await boundedBody(c, maxBytes);
      const outcome = await intake.upload(inbox, body, c.req.header('content-type') ?? '');
      if (!outcome.ok) throw refusal(outcome);
      return c.json({ received: outcome.received }, 201);
    },
  );
}
