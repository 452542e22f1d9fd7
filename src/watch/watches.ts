import type { Resolver } from '../dns/index.js';
import type { Logger } from '../lib/index.js';
import type { Store } from '../store/index.js';
import { reachableWith, type WebhookSender } from '../webhooks/index.js';
import type { WatchBound } from './check-step.js';
import type { DeliveryOutcome } from './delivery-step.js';
import type { EmailDeps } from './email-step.js';
import type { CodeCheck } from './email/index.js';
import type { Recheck } from './kinds/index.js';
import {
  confirmationRetryDelaysMs,
  defaultRetryDelaysMs,
  type Digest,
  type DropReason,
  hashOf,
  type LinksOf,
  type RandomBytes,
  sameHash,
  type WatchConfig,
  type WatchLimits,
  type WatchView,
  watchRecords,
} from './model/index.js';
import * as operations from './operations/index.js';
import type {
  Confirmation,
  CreateOutcome,
  KeyCheck,
  NoticeInput,
  OperationContext,
  UpdateOutcome,
  WatchChanges,
  WatchFailure,
  WatchInput,
  WatchOwner,
} from './operations/index.js';
import { createWatchRunner, type RunnerOptions, runnerSizes, type WatchRunner } from './runner.js';

/**
 * The watches' face (docs/watch-engine.md, "Operations"): the operations the routes and other
 * subsystems call, composed over one context, and the runner that re-checks watches and delivers
 * their events. Failures a caller can act on are outcomes with an error code, as the checks' are;
 * a store that fails throws StoreUnavailableError (503 store_unavailable).
 */

export interface WatchDeps {
  store: Store;
  clock: () => Date;
  randomBytes: RandomBytes;
  digest: Digest;
  limits: WatchLimits;
  /** A fresh check of a target (src/watch/kinds/registry.ts). */
  recheck: Recheck;
  /** Whether checks can be trusted now: while not, the runner claims no watch (runner.ts). */
  canCheck?: () => boolean;
  /** The page and badge URLs of a watch, for its events. */
  links: LinksOf;
  /** The runtime's POST to a webhook (the Platform's). */
  sender: WebhookSender;
  /** Resolves webhook host names at each delivery (the service's resolver). */
  resolver: Resolver;
  /** Whether an address lies in WEBHOOK_ALLOW_NETWORKS (reached by the operator's watches only). */
  allowedNetwork: (address: string) => boolean;
  /**
   * The keyed ids callers are stored under (src/operations/caller-ids.ts): a subject's id under
   * the current key, then under the previous one while it is kept.
   */
  callerIds: { idsOf(subject: string): Promise<string[]> };
  log: Logger;
  /** Tests shorten the retries and leases. */
  runner?: Partial<RunnerOptions> & {
    retryDelaysMs?: readonly number[];
    confirmRetryDelaysMs?: readonly number[];
  };
  /** Hear the runner's work (the operator's metrics, docs/operations.md). */
  onChecked?: (lagMs: number) => void;
  onAttempt?: (outcome: DeliveryOutcome) => void;
  onDropped?: (reason: DropReason) => void;
  onBounded?: (bound: WatchBound) => void;
  /**
   * E-mail alerts (docs/watches.md, "E-mail"): the platform's sender and ALERT_FROM; without it,
   * a watch with `email` is refused (`email_unavailable`).
   */
  email?: EmailDeps;
  /**
   * The zone list's meanings in Russian, by their English (src/share's `russianMeanings`): an
   * alert in Russian says what a list's code means in Russian.
   */
  meanings?: ReadonlyMap<string, string>;
}

export interface Watches {
  /** A new watch for `owner`: a caller of the HTTP API, or another subsystem. */
  create(input: WatchInput, owner: WatchOwner): Promise<CreateOutcome>;
  /**
   * The public view; undefined for an unknown watch (an ended one says `ended`). The last
   * delivery's outcome only with `withDelivery` (the manage key's holder asks).
   */
  view(id: string, options?: { withDelivery?: boolean }): Promise<WatchView | undefined>;
  /** Changes a live watch and renews it, its places taken again under `owner`'s caps. */
  update(id: string, changes: WatchChanges, owner?: WatchOwner): Promise<UpdateOutcome>;
  /** Ends a live watch now: its keys, its place in the queue and its pending deliveries. */
  remove(id: string, owner?: WatchOwner): Promise<{ ok: true } | WatchFailure>;
  /** Queues a `watch.test` event for delivery now. */
  sendTest(id: string): Promise<{ ok: true } | WatchFailure>;
  /**
   * What a confirmation link's code finds now, without changing anything (the page its GET
   * shows), and its POST, which confirms the address.
   */
  emailCode(id: string, code: string): Promise<CodeCheck | 'not_found'>;
  confirmEmail(id: string, code: string): Promise<{ ok: true } | WatchFailure>;
  /** The one-click unsubscribe (RFC 8058): no more mail to that address for that watch, at once. */
  unsubscribeEmail(id: string, code: string): Promise<{ ok: true } | WatchFailure>;
  /**
   * A subsystem's notice, sent to its user's webhook or address by the deliveries
   * (docs/watch-engine.md, "Notices"): the id its deliveries carry (`webhook-id`).
   */
  notify(
    notice: NoticeInput,
    owner: { subsystem: string; id: string; operator?: boolean },
  ): Promise<{ ok: true; id: string } | WatchFailure>;
  /**
   * A subsystem's double opt-in of its user's address, within a watch's daily limits: the e-mail
   * to keep (unconfirmed) and the code its confirmation link carries (docs/watch-engine.md,
   * "Notices").
   */
  confirmAddress(
    address: string,
    owner: { subsystem: string; id: string },
    unsubscribe?: string,
  ): Promise<Confirmation | WatchFailure>;
  /** Whether `key` is the manage key of a live watch (compared as hashes, in constant time). */
  checkManageKey(id: string, key: string): Promise<KeyCheck>;
  /** How many watches are live (the set WATCH_MAX caps). */
  countLive(): Promise<number>;
  /** The pending deliveries of every watch, and the age of the oldest (the metrics' gauges). */
  deliveryQueue(): Promise<{ pending: number; oldestAgeSeconds: number }>;
  runner: WatchRunner;
}

export function createWatches(deps: WatchDeps): Watches {
  const { store, limits } = deps;
  const now = () => deps.clock().getTime();
  const records = watchRecords(store, now);
  // Only the operator's watches reach WEBHOOK_ALLOW_NETWORKS; every other one public addresses.
  const publicOnly = reachableWith(() => false);
  const operatorReachable = reachableWith(deps.allowedNetwork);
  const reachable = (watch: Pick<WatchConfig, 'operator'>) =>
    watch.operator === true ? operatorReachable : publicOnly;
  const queueRules = {
    pendingPerWatch: limits.pendingDeliveries,
    ...(deps.onDropped ? { onDropped: deps.onDropped } : {}),
  };
  // The runner takes the deps as they are, with the records and the limits it reads; the
  // operations' context below stands on the same records.
  const { email, runner: sizes, ...shared } = deps;
  const runner = createWatchRunner(
    {
      ...shared,
      records,
      reachable,
      minIntervalS: limits.minIntervalS,
      timeoutMs: limits.webhookTimeoutMs,
      retryDelaysMs: sizes?.retryDelaysMs ?? defaultRetryDelaysMs,
      confirmRetryDelaysMs: sizes?.confirmRetryDelaysMs ?? confirmationRetryDelaysMs,
      queueRules,
      ...(email ? { email } : {}),
    },
    { ...runnerSizes(limits), ...sizes },
  );
  const context: OperationContext = {
    store,
    records,
    limits,
    now,
    clock: deps.clock,
    randomBytes: deps.randomBytes,
    digest: deps.digest,
    hashing: { hashOf: (text) => hashOf(text, deps.digest), sameHash },
    recheck: deps.recheck,
    links: deps.links,
    callerIds: deps.callerIds,
    reachable,
    sendsEmail: deps.email !== undefined,
    queueRules,
    wake: () => runner.wake(),
  };
  return {
    create: (input, owner) => operations.createWatch(context, input, owner),
    view: (id, options) => operations.viewWatch(context, id, options),
    update: (id, changes, owner) => operations.updateWatch(context, id, changes, owner),
    remove: (id, owner) => operations.removeWatch(context, id, owner),
    sendTest: (id) => operations.sendTest(context, id),
    emailCode: (id, code) => operations.emailCode(context, id, code),
    confirmEmail: (id, code) => operations.confirmEmail(context, id, code),
    unsubscribeEmail: (id, code) => operations.unsubscribeEmail(context, id, code),
    notify: (notice, owner) => operations.notify(context, notice, owner),
    confirmAddress: (address, owner, unsubscribe) =>
      operations.confirmAddress(context, address, owner, unsubscribe),
    checkManageKey: (id, key) => operations.checkManageKey(context, id, key),
    countLive: () => operations.countLive(context),
    deliveryQueue: () => operations.deliveryQueue(context),
    runner,
  };
}
