import { enqueueDeliveries, pendingDelivery, watchEvent } from '../model/index.js';
import { liveWatch, type OperationContext } from './context.js';
import { fail, notFound, type WatchFailure } from './errors.js';

/** Queues a `watch.test` event for delivery now: one pending test a watch at a time. */
export async function sendTest(
  context: OperationContext,
  id: string,
): Promise<{ ok: true } | WatchFailure> {
  const { records, now } = context;
  const watch = await liveWatch(context, id);
  if (!watch) return notFound();
  if (!watch.webhook) return fail('invalid_request', 'the watch has no webhook_url');
  if (watch.paused) {
    return fail('invalid_request', 'the watch is paused: PATCH {"paused": false} first');
  }
  const state = await records.state(id);
  const status = state?.status ?? { verdict: 'unknown' as const, score: 0, listed_on: [] };
  const event = watchEvent('watch.test', watch, context.links(watch), status, context.clock());
  const delivery = pendingDelivery(id, event, context.randomBytes, now());
  // One pending test a watch, until its first attempt ends: within a timeout of its turn.
  if (!(await records.holdTest(id, delivery.id))) {
    return {
      ...fail('test_pending', 'a test of this watch is pending: its answer comes first'),
      retryAfterS: Math.ceil(context.limits.webhookTimeoutMs / 1000),
    };
  }
  await enqueueDeliveries(context.store, records, [delivery], now(), context.queueRules);
  context.wake();
  return { ok: true };
}
