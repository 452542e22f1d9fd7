import type { Resolver } from '../dns/index.js';
import type { Logger } from '../lib/index.js';
import type { DueClaim, Store } from '../store/index.js';
import { forgetDelivery, type QueueRules } from './deliveries.js';
import { hasEnded, queues, type WatchRecords } from './records.js';
import { deliveryLeaseMs, retryDelay } from './schedule.js';
import type { RenderChat, RenderMail } from './chat-format.js';
import {
  emailLinks,
  type EmailAnswer,
  type EmailSender,
  mailMessage,
  type PendingMail,
} from './email/index.js';
import type { LinksOf } from './events.js';
import type { PendingDelivery, WatchConfig, WatchEvent, Webhook } from './schemas.js';
import {
  type Reachable,
  signedHeaders,
  webhookAddress,
  type WebhookSender,
} from '../webhooks/index.js';

/**
 * One attempt at one pending delivery, claimed from the queue by this process (docs/watches.md,
 * "Deliveries"): a 2xx answer delivers it; 410 Gone removes the webhook from the watch; anything
 * else (another status, a redirect, no connection, no answer within WEBHOOK_TIMEOUT_MS, a name
 * that now resolves to a non-public address) is a failed attempt, tried again after the next
 * retry delay with the same `webhook-id`. An event counts toward the pause from
 * its first failed attempt; a 2xx answer starts the count again. A watch has one attempt in
 * flight at a time: a delivery claimed while another of its watch is under way waits one timeout.
 */

export interface DeliveryStepDeps {
  store: Store;
  records: WatchRecords;
  sender: WebhookSender;
  resolver: Resolver;
  /** Where a watch's webhook may connect: the operator's watches reach WEBHOOK_ALLOW_NETWORKS. */
  reachable: (watch: WatchConfig) => Reachable;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  clock: () => Date;
  log: Logger;
  /** Who hears of the pending deliveries let go unsent (the queue's own rules). */
  queueRules: QueueRules;
  onScheduled: (dueAt: number) => void;
  /** A chat format's message (docs/watches.md, "Chat formats"); without it, every body is the event. */
  renderChat?: RenderChat;
  /** Hears how each attempt ended (the metrics' deliveries by outcome). */
  onAttempt?: (outcome: DeliveryOutcome) => void;
  /** E-mail alerts, when the platform can send them (SMTP_URL and ALERT_FROM). */
  email?: EmailDeps;
}

/** What an e-mail delivery needs: the sender, ALERT_FROM, the messages, the watch's links. */
export interface EmailDeps {
  sender: EmailSender;
  from: string;
  render: RenderMail;
  links: LinksOf;
  /** Hears how each attempt ended (the metrics' e-mails by outcome). */
  onAttempt?: (outcome: EmailAnswer['kind']) => void;
}

/** A 2xx, a 410, anything else, or a name that resolves to a non-public address. */
export type DeliveryOutcome = 'delivered' | 'gone' | 'failed' | 'refused';

interface Attempt {
  outcome: DeliveryOutcome;
  status?: number;
  /** Why it failed, for the operator's log only. */
  reason?: string;
}

export async function runDeliveryStep(deps: DeliveryStepDeps, claim: DueClaim): Promise<void> {
  const { store, records } = deps;
  const pending = await records.delivery(claim.id);
  if (!pending) return store.removeDue(queues.deliveries, claim.id);
  const done = () => forgetDelivery(store, records, pending.watch_id, pending.id);
  const watch = await records.config(pending.watch_id);
  if (pending.mail) return mailOnce(deps, watch, pending, pending.mail, done);
  // A deleted or ended watch, or one whose webhook was removed, has nothing left to deliver.
  if (!watch?.webhook || hasEnded(watch, deps.clock().getTime())) return done();
  const status = await records.webhookStatus(watch.id);
  // A test's first attempt is how a receiver that is back proves it: it is made while paused, and
  // its 2xx resumes the deliveries. Its retries are dropped like any other delivery's.
  if (status.paused && !(pending.test && pending.attempts === 0)) {
    deps.queueRules.onDropped?.('paused');
    return done();
  }
  // One attempt per watch at a time, so a receiver that stalls holds one slot and no more: the
  // others of its watch wait for it to end, one timeout at most (docs/watches.md, "Fair delivery").
  const leaseMs = deliveryLeaseMs(deps.timeoutMs);
  if (!(await records.holdAttempt(watch.id, pending.id, leaseMs))) {
    const due = deps.clock().getTime() + deps.timeoutMs;
    await store.putDue(queues.deliveries, pending.id, due);
    await records.addWaiting(watch.id, pending.id, leaseMs);
    deps.onScheduled(due);
    return;
  }
  try {
    await attemptOnce(deps, watch, watch.webhook, pending, done, status.paused);
  } finally {
    await records.releaseAttempt(watch.id, pending.id);
    // A test is pending until its first attempt ends: the next may be asked for then.
    if (pending.test) await records.releaseTest(watch.id, pending.id);
    await wakeWaiting(deps, watch.id);
  }
}

/**
 * One attempt at an e-mail (docs/watches.md, "E-mail"): sent only while its address is still the
 * watch's, and confirmed for an alert; a confirmation only while its link lives. It goes to the
 * operator's SMTP server, not to a stranger's receiver, so no one-at-a-time rule and no pause:
 * a failed attempt is retried at the webhooks' delays, then dropped.
 */
async function mailOnce(
  deps: DeliveryStepDeps,
  watch: WatchConfig | undefined,
  pending: PendingDelivery,
  mail: PendingMail,
  done: () => Promise<void>,
): Promise<void> {
  const at = deps.clock();
  const email = watch?.email;
  if (!deps.email || !watch || hasEnded(watch, at.getTime()) || email?.address !== mail.to) {
    return done();
  }
  if (mail.kind === 'alert' ? !email.confirmed : email.confirmed || !mail.code) return done();
  // A confirmation whose link has expired, or been replaced by a newer one, would only mislead.
  if (
    mail.kind === 'confirm' &&
    (Date.parse(email.code_expires_at ?? '') <= at.getTime() ||
      (mail.expires_at !== undefined && mail.expires_at !== email.code_expires_at))
  ) {
    return done();
  }
  const { page_url } = deps.email.links(watch);
  const links = emailLinks(page_url);
  const unsubscribeUrl = links.unsubscribe(email.unsubscribe);
  const content =
    mail.kind === 'confirm'
      ? deps.email.render({
          kind: 'confirm',
          watch,
          confirmUrl: links.confirm(mail.code!),
          pageUrl: page_url,
          expiresAt: email.code_expires_at!,
        })
      : deps.email.render({
          kind: 'alert',
          event: JSON.parse(pending.body) as WatchEvent,
          watch,
          status: (await deps.records.state(watch.id))?.status,
          unsubscribeUrl,
        });
  const message = mailMessage({
    from: deps.email.from,
    to: mail.to,
    id: pending.id,
    date: at,
    content,
    ...(mail.kind === 'alert' ? { unsubscribeUrl } : {}),
  });
  const answer = await deps.email.sender.send(message);
  deps.email.onAttempt?.(answer.kind);
  if (answer.kind === 'sent') return done();
  const attempts = pending.attempts + 1;
  deps.log('info', 'e-mail delivery failed', {
    watch: watch.id,
    event: pending.id,
    attempt: attempts,
    reason: answer.reason,
  });
  await retryOrDrop(deps, { ...pending, attempts }, deps.clock().getTime(), done);
}

/** After a failed attempt: the next at the retry delays (5 s, 1 h, 24 h), or none after the last. */
async function retryOrDrop(
  deps: DeliveryStepDeps,
  tried: PendingDelivery,
  now: number,
  done: () => Promise<void>,
): Promise<void> {
  const delay = retryDelay(tried.attempts, deps.retryDelaysMs);
  if (delay === undefined) return done();
  await deps.records.putDelivery(tried);
  const due = now + delay;
  await deps.store.putDue(queues.deliveries, tried.id, due);
  deps.onScheduled(due);
}

/** The deliveries put off while the attempt ran are due now: the next of them takes its turn. */
async function wakeWaiting(deps: DeliveryStepDeps, watchId: string): Promise<void> {
  const waiting = await deps.records.takeWaiting(watchId);
  if (waiting.length === 0) return;
  const now = deps.clock().getTime();
  for (const eventId of waiting) await deps.store.putDue(queues.deliveries, eventId, now);
  deps.onScheduled(now);
}

async function attemptOnce(
  deps: DeliveryStepDeps,
  watch: WatchConfig,
  { url, secret, format = 'standard' }: Webhook,
  pending: PendingDelivery,
  done: () => Promise<void>,
  wasPaused: boolean,
): Promise<void> {
  const { records } = deps;
  // A chat message is made at each attempt from the event kept, in the format set now.
  const chat =
    format === 'standard' || !deps.renderChat
      ? undefined
      : deps.renderChat({
          format,
          event: JSON.parse(pending.body) as WatchEvent,
          watch,
          url,
          status: (await records.state(watch.id))?.status,
        });
  const attempt = await attemptDelivery(
    { ...deps, reachable: deps.reachable(watch) },
    url,
    secret,
    pending.id,
    chat ?? { body: pending.body, headers: {} },
  );
  deps.onAttempt?.(attempt.outcome);
  const at = deps.clock();
  const last = {
    outcome: attempt.outcome,
    at: at.toISOString(),
    ...(attempt.status ? { status: attempt.status } : {}),
  };
  const attempts = pending.attempts + 1;
  await records.putLastDelivery(watch, last);
  if (attempt.outcome === 'delivered' || attempt.outcome === 'gone') {
    await done();
    await records.clearFailedEvents(watch.id);
    if (attempt.outcome === 'gone') await removeWebhook(deps, watch, url);
    return;
  }
  deps.log('info', 'webhook delivery failed', {
    watch: watch.id,
    event: pending.id,
    attempt: attempts,
    ...(attempt.status ? { status: attempt.status } : {}),
    ...(attempt.reason ? { reason: attempt.reason } : {}),
  });
  // Counted from its first failed attempt (a member of a set: once, however many fail), before
  // the retry is written: a process stopping in between counts it again, rather than not at all.
  await records.addFailedEvent(watch, pending.id);
  await retryOrDrop(deps, { ...pending, attempts }, at.getTime(), done);
  if (!wasPaused && (await records.webhookStatus(watch.id)).paused) {
    deps.log('info', 'webhook deliveries paused after failed events', { watch: watch.id });
  }
}

async function attemptDelivery(
  deps: Omit<DeliveryStepDeps, 'reachable'> & { reachable: Reachable },
  url: string,
  secret: string,
  eventId: string,
  { body, headers }: { body: string; headers: Record<string, string> },
): Promise<Attempt> {
  const target = await webhookAddress(url, deps.resolver, deps.reachable);
  if (!target.ok) return { outcome: target.outcome, reason: target.reason };
  const answer = await deps.sender.send({
    url,
    address: target.address,
    // A chat message is signed too, over the bytes sent: a receiver of ours may check it, a chat
    // service ignores headers it does not know (docs/watches.md, "Chat formats").
    headers: { ...signedHeaders(secret, eventId, deps.clock(), body), ...headers },
    body,
    timeoutMs: deps.timeoutMs,
  });
  if (answer.kind === 'failed') return { outcome: 'failed', reason: answer.reason };
  const { status } = answer;
  if (status >= 200 && status < 300) return { outcome: 'delivered', status };
  // RFC 9110 §15.5.11: the receiver is gone for good, and says so.
  return { outcome: status === 410 ? 'gone' : 'failed', status };
}

/** 410 Gone: the watch keeps watching, without a webhook (unless a PATCH set another since). */
async function removeWebhook(
  deps: DeliveryStepDeps,
  watch: WatchConfig,
  url: string,
): Promise<void> {
  const current = await deps.records.config(watch.id);
  if (current?.webhook?.url !== url) return;
  await deps.records.putConfig({ ...current, webhook: null });
  deps.log('info', 'webhook removed: the receiver answered 410 Gone', { watch: watch.id });
}
