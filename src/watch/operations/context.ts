import type { Store } from '../../store/index.js';
import type { Reachable } from '../../webhooks/index.js';
import type { Hashing } from '../email/index.js';
import type { Recheck } from '../kinds/index.js';
import {
  type Digest,
  hasEnded,
  type LinksOf,
  type QueueRules,
  type RandomBytes,
  type WatchConfig,
  type WatchLimits,
  type WatchRecords,
} from '../model/index.js';

/**
 * What every operation runs on (docs/watch-engine.md, "Operations"), built once by the watches'
 * face (src/watch/watches.ts) and passed to each: the store and its records, the clock, the
 * random bytes and hashes, the limits, the first check, and how a queued delivery wakes the
 * runner. Each operation is a function of it and of plain inputs, so the HTTP routes and another
 * subsystem call the same ones.
 */
export interface OperationContext {
  store: Store;
  records: WatchRecords;
  limits: WatchLimits;
  now: () => number;
  clock: () => Date;
  randomBytes: RandomBytes;
  digest: Digest;
  hashing: Hashing;
  /** A fresh check of a target (src/watch/kinds/registry.ts). */
  recheck: Recheck;
  links: LinksOf;
  /** The keyed ids callers are stored under (src/operations/caller-ids.ts). */
  callerIds: { idsOf(subject: string): Promise<string[]> };
  /** Where a webhook may connect: the operator's watches reach WEBHOOK_ALLOW_NETWORKS too. */
  reachable: (watch: Pick<WatchConfig, 'operator'>) => Reachable;
  /** Whether the service can send e-mail (a sender and ALERT_FROM). */
  sendsEmail: boolean;
  queueRules: QueueRules;
  /** New work was queued: the runner claims it now rather than at its next tick. */
  wake: () => void;
}

/** The watch under `id`, while it lives. */
export async function liveWatch(
  context: OperationContext,
  id: string,
): Promise<WatchConfig | undefined> {
  const watch = await context.records.config(id);
  return watch && !hasEnded(watch, context.now()) ? watch : undefined;
}
