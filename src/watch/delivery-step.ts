import type { Resolver } from '../dns/index.js';
import type { Logger } from '../http/index.js';
import type { DueClaim, Store } from '../store/index.js';
import { hasEnded, queues, type WatchRecords } from './records.js';
import { pauseAfterFailedEvents, retryDelay } from './schedule.js';
import type { WatchConfig } from './schemas.js';
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
 * retry delay with the same `webhook-id`. An event whose every attempt failed counts toward the
 * pause; a delivered one starts the count again.
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
  onScheduled: (dueAt: number) => void;
  /** Hears how each attempt ended (the metrics' deliveries by outcome). */
  onAttempt?: (outcome: DeliveryOutcome) => void;
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
  const done = async () => {
    await records.deleteDelivery(claim.id);
    await store.removeDue(queues.deliveries, claim.id);
  };
  const pending = await records.delivery(claim.id);
  if (!pending) return store.removeDue(queues.deliveries, claim.id);
  const watch = await records.config(pending.watch_id);
  // A deleted or ended watch, or one whose webhook was removed, has nothing left to deliver.
  if (!watch?.webhook || hasEnded(watch, deps.clock().getTime())) return done();
  const status = await records.webhookStatus(watch.id);
  if (status.paused) return done();

  const { url, secret } = watch.webhook;
  const attempt = await attemptDelivery(
    { ...deps, reachable: deps.reachable(watch) },
    url,
    secret,
    pending.id,
    pending.body,
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
  const delay = retryDelay(attempts, deps.retryDelaysMs);
  if (delay !== undefined) {
    await records.putDelivery({ ...pending, attempts });
    const due = at.getTime() + delay;
    await store.putDue(queues.deliveries, pending.id, due);
    deps.onScheduled(due);
    return;
  }
  // Counted before the delivery is let go: a process stopping in between counts it again,
  // as the same member, rather than not at all.
  await records.addFailedEvent(watch, pending.id);
  await done();
  if (status.failed_events + 1 >= pauseAfterFailedEvents) {
    deps.log('info', 'webhook deliveries paused after failed events', { watch: watch.id });
  }
}

async function attemptDelivery(
  deps: Omit<DeliveryStepDeps, 'reachable'> & { reachable: Reachable },
  url: string,
  secret: string,
  eventId: string,
  body: string,
): Promise<Attempt> {
  const target = await webhookAddress(url, deps.resolver, deps.reachable);
  if (!target.ok) return { outcome: target.outcome, reason: target.reason };
  const answer = await deps.sender.send({
    url,
    address: target.address,
    headers: signedHeaders(secret, eventId, deps.clock(), body),
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
