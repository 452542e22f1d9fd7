import type { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/index.js';
import { parseHostName, type Target } from '../../reputation/index.js';
import { firstNonEmpty } from '../common/index.js';
import type { mailCheckRequest } from './schemas.js';

/** What a mail check request names: the domain and the DKIM selectors to try beside the usual ones. */
export interface MailRequest {
  domain: Extract<Target, { kind: 'domain' }>;
  selectors: string[];
  /** One result per domain and selector set, whatever order or case the caller wrote them in. */
  requestKey: string;
}

/** The request's domain (alias `target`) and selectors; a 400 for a missing or bad domain. */
export function readMailRequest(body: z.infer<typeof mailCheckRequest>): MailRequest {
  const text = firstNonEmpty(body.domain, body.target);
  if (text === undefined)
    throw new ApiError('invalid_request', 'domain is required (alias target)');
  const parsed = parseHostName(text);
  if (!parsed.ok) throw new ApiError('invalid_target', parsed.reason);
  if (parsed.target.kind !== 'domain')
    throw new ApiError('invalid_target', 'expected a domain name');
  const selectors = [...new Set((body.dkim_selectors ?? []).map((s) => s.toLowerCase()))].sort();
  return {
    domain: parsed.target,
    selectors,
    requestKey: [parsed.target.name, ...selectors].join(' '),
  };
}
