import { checkWebhookUrl, inferWebhookFormat, type WebhookFormat } from '../../webhooks/index.js';
import {
  enqueueDeliveries,
  newEventId,
  type Notice,
  type NoticeEvent,
  type PendingDelivery,
  type WatchLang,
} from '../model/index.js';
import type { OperationContext } from './context.js';
import { fail, type WatchFailure } from './errors.js';

/**
 * A subsystem's notice (docs/watch-engine.md, "Notices"): its own event, not a watch's, sent to
 * the webhook or the address its user gave, by the deliveries that send the watches' events, with
 * their retries, signatures, chat formats and e-mail. Each goes to one channel.
 */
export interface NoticeInput {
  /** The event; absent for the confirmation of `email.to` (`email.confirm`). */
  event?: NoticeEvent;
  lang: WatchLang;
  /** The webhook, signed with the subsystem's own secret; its format what its host takes, unless named. */
  webhook?: { url: string; secret: string; format?: WebhookFormat | undefined };
  /**
   * The address: an event only once the subsystem confirmed it, with the one-click link that
   * stops its mail (RFC 8058); or its confirmation.
   */
  email?: Notice['email'];
  /** The event's id when the subsystem makes one: queued again while pending, it is one delivery. */
  id?: string;
}

export async function notify(
  context: OperationContext,
  input: NoticeInput,
  owner: { subsystem: string; id: string; operator?: boolean },
): Promise<{ ok: true; id: string } | WatchFailure> {
  if ((input.webhook === undefined) === (input.email === undefined)) {
    return fail('invalid_request', 'a notice goes to a webhook or to an address, one of them');
  }
  if ((input.event === undefined) !== (input.email?.confirm !== undefined)) {
    return fail('invalid_request', 'a notice is an event, or the confirmation of an address');
  }
  if (input.event && input.email && !input.email.unsubscribe_url) {
    return fail('invalid_request', 'an e-mailed event carries its one-click unsubscribe link');
  }
  let webhook: Notice['webhook'];
  if (input.webhook) {
    // Public addresses only, unless the owner is the operator's (as its watches).
    const checked = checkWebhookUrl(
      input.webhook.url,
      context.reachable(operatorOf(owner)),
      context.limits.webhookAllowPorts,
    );
    if (!checked.ok) return fail('invalid_webhook', checked.reason);
    webhook = {
      url: checked.url,
      secret: input.webhook.secret,
      format: input.webhook.format ?? inferWebhookFormat(checked.url),
    };
  }
  if (input.email && !context.sendsEmail) {
    return fail(
      'email_unavailable',
      'this service sends no e-mail (SMTP_URL is not set, or not here)',
    );
  }
  const ownerId = `${owner.subsystem}:${owner.id}`;
  const id = input.id ?? newEventId(context.randomBytes);
  if (input.id !== undefined && (await context.records.delivery(id))) return { ok: true, id };
  const at = context.now();
  const delivery: PendingDelivery = {
    id,
    watch_id: ownerId,
    body: input.event ? JSON.stringify(input.event) : '',
    attempts: 0,
    queued_at: at,
    notice: {
      owner: ownerId,
      ...operatorOf(owner),
      lang: input.lang,
      ...(webhook ? { webhook } : {}),
      ...(input.email ? { email: input.email } : {}),
    },
  };
  await enqueueDeliveries(context.store, context.records, [delivery], at, context.queueRules);
  context.wake();
  return { ok: true, id };
}

const operatorOf = (owner: { operator?: boolean }) => (owner.operator ? { operator: true } : {});
