import type { z } from '@hono/zod-openapi';
import type { Target } from '../../reputation/index.js';
import { requestedDomain, type TargetDeps } from '../common/index.js';
import type { mailCheckRequest } from './schemas.js';

/** What a mail check request names: the domain and the DKIM selectors to try beside the usual ones. */
export interface MailRequest {
  domain: Extract<Target, { kind: 'domain' }>;
  selectors: string[];
  /** One result per domain and selector set, whatever order or case the caller wrote them in. */
  requestKey: string;
}

/** The request's domain (alias `target`) and selectors; a 400 for a missing or bad domain. */
export function readMailRequest(
  body: z.infer<typeof mailCheckRequest>,
  deps: TargetDeps,
): MailRequest {
  const domain = requestedDomain(body, 'mail', deps);
  const selectors = [...new Set((body.dkim_selectors ?? []).map((s) => s.toLowerCase()))].sort();
  return { domain, selectors, requestKey: [domain.name, ...selectors].join(' ') };
}
