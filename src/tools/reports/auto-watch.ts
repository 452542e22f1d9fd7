import { ApiError } from '../../http/index.js';
import { parseEmailAddress } from '../../watch/index.js';
import {
  checkWebhookUrl,
  isWebhookFormat,
  type PortRange,
  type Reachable,
} from '../../webhooks/index.js';
import type { z } from '@hono/zod-openapi';
import type { storedAutoWatchSchema, updateInboxRequest } from './schemas.js';

/**
 * An inbox's `auto_watch` settings (docs/reports.md, "Auto watch"): where the watches of its
 * sources send their alerts (a webhook or an e-mail address, judged as a watch's are), in which
 * format, and from how many messages a source is watched. Kept on the inbox; the watches
 * themselves are made by the auto-watch renewer.
 */

export type AutoWatch = z.infer<typeof storedAutoWatchSchema>;

/** A source that passed DMARC with at least this many messages in 30 days is watched. */
export const defaultMinMessages = 100;

/**
 * `reachable`: where the webhook may point. Public addresses only, as a watch's (docs/watches.md,
 * "Safety"), but for an inbox made with OPERATOR_TOKEN, whose watches are the operator's.
 */
export function readAutoWatch(
  requested: z.infer<typeof updateInboxRequest>['auto_watch'],
  rules: { webhookPorts: readonly PortRange[]; sendsEmail: boolean; reachable: Reachable },
): AutoWatch | null {
  if (requested === null) return null;
  const { webhook_url: url, email, webhook_format: format } = requested;
  if ((url === undefined) === (email === undefined)) {
    throw new ApiError('invalid_request', 'auto_watch: give webhook_url or email, one of them');
  }
  if (format !== undefined && url === undefined)
    throw new ApiError('invalid_webhook', 'webhook_format needs a webhook_url');
  let webhook: string | null = null;
  if (url !== undefined) {
    const checked = checkWebhookUrl(url, rules.reachable, rules.webhookPorts);
    if (!checked.ok) throw new ApiError('invalid_webhook', checked.reason);
    if (format !== undefined && !isWebhookFormat(format)) {
      throw new ApiError(
        'invalid_webhook',
        'webhook_format must be standard, slack, discord, telegram or ntfy',
      );
    }
    webhook = checked.url;
  }
  let address: string | null = null;
  if (email !== undefined) {
    if (!rules.sendsEmail) {
      throw new ApiError(
        'email_unavailable',
        'this service sends no e-mail (SMTP_URL is not set, or not here)',
      );
    }
    const parsed = parseEmailAddress(email);
    if (!parsed.ok) throw new ApiError('invalid_email', parsed.reason);
    address = parsed.address;
  }
  return {
    webhook_url: webhook,
    webhook_format: webhook === null ? null : (format ?? null),
    email: address,
    min_messages: requested.min_messages ?? defaultMinMessages,
  };
}
