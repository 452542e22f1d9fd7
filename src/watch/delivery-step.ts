import type { Resolver } from '../dns/index.js';
import type { Logger } from '../lib/index.js';
import type { DueClaim, Store } from '../store/index.js';
import { webhookRequest } from './alerts/index.js';
import { type EmailDeps, emailOnce } from './email-step.js';
import { noticeOnce } from './notice-step.js';
import {
  deliveryLeaseMs,
  forgetDelivery,
  hasEnded,
  type PendingDelivery,
  type QueueRules,
  queues,
  retryOrDrop,
  type WatchConfig,
  type WatchRecords,
  type Webhook,
} from './model/index.js';
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
  reachable: (watch: Pick<WatchConfig, 'operator'>) => Reachable;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  /** A confirmation e-mail's retries (schedule.ts). */
  confirmRetryDelaysMs: readonly number[];
  clock: () => Date;
  log: Logger;
  /** Who hears of the pending deliveries let go unsent (the queue's own rules). */
  queueRules: QueueRules;
  onScheduled: (dueAt: number) => void;
  /** Hears how each attempt ended (the metrics' deliveries by outcome). */
  onAttempt?: (outcome: DeliveryOutcome) => void;
  /** E-mail alerts, when the platform can send them (SMTP_URL and ALERT_FROM). */
  email?: EmailDeps;
  /**
   * The zone list's meanings in Russian, by their English (src/share's `russianMeanings`): an
   * alert in Russian says what a list's code means in Russian.
   */
  meanings?: ReadonlyMap<string, string>;
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
  if (pending.notice) return noticeOnce(deps, pending, pending.notice, done);
  const watch = await records.config(pending.watch_id);
  if (pending.email) return emailOnce(deps, watch, pending, pending.email, done);
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
  const request = webhookRequest({
    format,
    body: pending.body,
    watch,
    url,
    state: format === 'standard' ? undefined : await records.state(watch.id),
    ...(deps.meanings ? { meanings: deps.meanings } : {}),
  });
  const attempt = await attemptDelivery(
    { ...deps, reachable: deps.reachable(watch) },
    url,
    secret,
    pending.id,
    request,
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
  // A failure shows where the operator looks (the demo prints warnings), with why.
  deps.log('warn', 'webhook delivery failed', {
    watch: watch.id,
    event: pending.id,
    attempt: attempts,
    ...(attempt.status ? { status: attempt.status } : {}),
    reason: attempt.reason ?? `the receiver answered ${attempt.status}`,
  });
  // Counted from its first failed attempt (a member of a set: once, however many fail), before
  // the retry is written: a process stopping in between counts it again, rather than not at all.
  await records.addFailedEvent(watch, pending.id);
  await retryOrDrop(deps, { ...pending, attempts }, at.getTime(), done);
  if (!wasPaused && (await records.webhookStatus(watch.id)).paused) {
    deps.log('info', 'webhook deliveries paused after failed events', { watch: watch.id });
  }
}

/** One POST of a signed request to a webhook, and what came of it (a notice's too). */
export async function attemptDelivery(
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
