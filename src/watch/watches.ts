import type { Resolver } from '../dns/index.js';
import type { Logger } from '../lib/index.js';
import {
  confirmedCheckFailures,
  type DomainCheckResult,
  type IpCheckResult,
  isSelector,
  type MailCheckResult,
  maxCallerSelectors,
} from '../reputation/index.js';
import type { Store } from '../store/index.js';
import { recordObservation } from './changes.js';
import { stampSince } from './timeline/index.js';
import { type DropReason, enqueueDeliveries, pendingDelivery } from './deliveries.js';
import { type LinksOf, watchEvent } from './events.js';
import type { Recheck } from './recheck.js';
import type { RenderChat } from './chat-format.js';
import {
  allWatchesKey,
  callerWatchesKey,
  hasEnded,
  idleWebhook,
  networkWatchesKey,
  queues,
  releasePlaces,
  watchRecords,
} from './records.js';
import type { DeliveryOutcome, EmailDeps } from './delivery-step.js';
import {
  checkConfirmCode,
  type Hashing,
  isUnsubscribeCode,
  newEmail,
  parseEmailAddress,
  takeConfirmationSend,
  type WatchEmail,
} from './email/index.js';
import { createWatchRunner, type RunnerOptions, type WatchRunner } from './runner.js';
import { defaultRetryDelaysMs } from './schedule.js';
import {
  maxConfirmations,
  type WatchConfig,
  type WatchKind,
  type WatchLang,
  type WatchView,
  type Webhook,
} from './schemas.js';
import {
  type Digest,
  hashOf,
  newEventId,
  newManageKey,
  newWatchId,
  type RandomBytes,
  sameHash,
} from './secrets.js';
import {
  maxIntervalS,
  networkCap,
  networkSubject,
  runnerSizes,
  type WatchLimits,
} from './settings.js';
import { parseWatchTarget } from './target.js';
import { watchView } from './view.js';
import {
  checkWebhookUrl,
  inferWebhookFormat,
  isWebhookFormat,
  newWebhookSecret,
  reachableWith,
  type WebhookSender,
} from '../webhooks/index.js';

/**
 * The watches' face (docs/watches.md): what the routes call to create, read, change and delete a
 * watch, send a test event and check a manage key, and the runner that re-checks watches and
 * delivers their events. Failures a caller can act on are outcomes with an error code, as the
 * checks' are; a store that fails throws StoreUnavailableError (503 store_unavailable).
 */

export interface WatchDeps {
  store: Store;
  clock: () => Date;
  randomBytes: RandomBytes;
  digest: Digest;
  limits: WatchLimits;
  /** A fresh check of a target (recheck.ts). */
  recheck: Recheck;
  /** Whether checks can be trusted now: while not, the runner claims no watch (runner.ts). */
  canCheck?: () => boolean;
  /** The page and badge URLs of a watch, for its events. */
  links: LinksOf;
  /** A chat format's message, in the watch's language (src/tools/watch/chat-messages.ts). */
  renderChat?: RenderChat;
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
  runner?: Partial<RunnerOptions> & { retryDelaysMs?: readonly number[] };
  /** Hear the runner's work (the operator's metrics, docs/operations.md). */
  onChecked?: (lagMs: number) => void;
  onAttempt?: (outcome: DeliveryOutcome) => void;
  onDropped?: (reason: DropReason) => void;
  /**
   * E-mail alerts (docs/watches.md, "E-mail"): the platform's sender, ALERT_FROM and the
   * messages; without it, a watch with `email` is refused (`email_unavailable`).
   */
  email?: Omit<EmailDeps, 'links'>;
}

/**
 * What `email` on POST and PATCH may be refused with: no sender (`email_unavailable`), not an
 * address (`invalid_email`), or the day's confirmation messages used (`email_limit`, 429).
 */
const emailErrors = ['invalid_email', 'email_unavailable', 'email_limit'] as const;

/**
 * What each operation may refuse, by its error code: the routes document exactly these
 * (src/tools/watch/), and the engine's failures are typed from them, so a refusal not named here
 * does not compile. `watch_limit` (429): the caller has WATCH_PER_CALLER live watches, or its
 * network WATCH_PER_NETWORK; `watch_capacity` (503): the service has WATCH_MAX; `test_pending`
 * (429): the watch's test is still pending.
 */
export const watchErrors = {
  /** Its first check's (a confirmed check, as a re-check's), and its own. */
  create: [
    ...confirmedCheckFailures,
    'invalid_request',
    'invalid_webhook',
    'watch_limit',
    'watch_capacity',
    ...emailErrors,
  ],
  /** A renewal by another caller takes places under the caps again. */
  update: [
    'not_found',
    'invalid_request',
    'invalid_webhook',
    'watch_limit',
    'watch_capacity',
    ...emailErrors,
  ],
  remove: ['not_found'],
  sendTest: ['not_found', 'invalid_request', 'test_pending'],
  /** The POST of a confirmation link: its code, or its 24 hours, may be past. */
  confirmEmail: ['not_found', 'email_code_wrong', 'email_link_expired'],
  unsubscribeEmail: ['not_found', 'email_code_wrong'],
} as const;

export type WatchError = (typeof watchErrors)[keyof typeof watchErrors][number];

export type WatchFailure = {
  ok: false;
  error: WatchError;
  reason: string;
  /** `dns_unavailable`: the lists its first check asked (check-outcome.ts), which the route charges. */
  listsAsked?: number;
  /** `test_pending`: seconds until it may succeed (Retry-After). */
  retryAfterS?: number;
};

export interface CreateRequest {
  target: string;
  kind?: WatchKind;
  interval_s?: number;
  webhook_url?: string | null;
  /** Checks in a row that must agree before a change is reported (1 to 5). */
  confirmations?: number;
  /** A mail watch: DKIM selectors to ask at every check, besides those it finds. */
  dkim_selectors?: readonly string[];
  /** standard, slack, discord, telegram or ntfy; absent: what the URL's host takes. */
  webhook_format?: string;
  /** Where alerts are e-mailed, once the address confirms (docs/watches.md, "E-mail"). */
  email?: string | null;
  lang?: WatchLang;
  /** The public origin of the request (src/http/public-origin.ts): its links' base without PUBLIC_URL. */
  origin?: string;
  /** The caller's quota subject (src/http/caller.ts `quotaSubject`: IPv6 per /64). */
  subject: string;
  /** The bearer token the request sent, if any: OPERATOR_TOKEN makes an operator's watch. */
  credential?: string;
}

export type CreateOutcome =
  | {
      ok: true;
      watch: WatchView;
      /** Shown once: only its hash is kept. */
      manage_key: string;
      /** Shown once, with a webhook. */
      webhook_secret?: string;
      /** The first check's result, as the IP, domain or mail tool answers it. */
      result: IpCheckResult | DomainCheckResult | MailCheckResult;
    }
  | WatchFailure;

export interface UpdateRequest {
  interval_s?: number;
  /** A URL (a new one gets a new secret), or null to remove the webhook. */
  webhook_url?: string | null;
  /** The format of the webhook (the new one's, or the one set). */
  webhook_format?: string;
  /** A new address (confirmed anew), the same one (a new link while unconfirmed), or null. */
  email?: string | null;
  lang?: WatchLang;
  paused?: boolean;
  confirmations?: number;
  /**
   * The quota subject of the caller who renews the watch: its places are taken again under this
   * caller's ids (the same caller keeps them), within the caps.
   */
  subject?: string;
}

export type UpdateOutcome =
  | { ok: true; watch: WatchView; /** Shown once, when the URL is new. */ webhook_secret?: string }
  | WatchFailure;

export type KeyCheck = 'ok' | 'wrong' | 'not_found';

export interface Watches {
  create(request: CreateRequest): Promise<CreateOutcome>;
  /**
   * The public view; undefined for an unknown watch (an ended one says `ended`). The last
   * delivery's outcome only with `withDelivery` (the manage key's holder asks).
   */
  view(id: string, options?: { withDelivery?: boolean }): Promise<WatchView | undefined>;
  /** Changes a live watch and renews it (expires_at moves WATCH_TTL_DAYS on). */
  update(id: string, request: UpdateRequest): Promise<UpdateOutcome>;
  /** Ends a live watch now: its keys, its place in the queue and its pending deliveries. */
  remove(id: string): Promise<{ ok: true } | WatchFailure>;
  /** Queues a `watch.test` event for delivery now. */
  sendTest(id: string): Promise<{ ok: true } | WatchFailure>;
  /**
   * What a confirmation link's code finds now, without changing anything (the page its GET
   * shows), and its POST, which confirms the address.
   */
  emailCode(
    id: string,
    code: string,
  ): Promise<'ok' | 'confirmed' | 'expired' | 'wrong' | 'not_found'>;
  confirmEmail(id: string, code: string): Promise<{ ok: true } | WatchFailure>;
  /** The one-click unsubscribe (RFC 8058): no more mail to that address for that watch, at once. */
  unsubscribeEmail(id: string, code: string): Promise<{ ok: true } | WatchFailure>;
  /** Whether `key` is the manage key of a live watch (compared as hashes, in constant time). */
  checkManageKey(id: string, key: string): Promise<KeyCheck>;
  /** How many watches are live (the set WATCH_MAX caps). */
  countLive(): Promise<number>;
  /** The pending deliveries of every watch, and the age of the oldest (the metrics' gauges). */
  deliveryQueue(): Promise<{ pending: number; oldestAgeSeconds: number }>;
  runner: WatchRunner;
}

/** A caller's ids under the current key and the previous one (src/operations/caller-ids.ts). */
interface CallerPlaces {
  caller: string[];
  network: string[];
}

const fail = (error: WatchError, reason: string): WatchFailure => ({ ok: false, error, reason });
const emailUnavailable = () =>
  fail('email_unavailable', 'this service sends no e-mail (SMTP_URL is not set, or not here)');
const notFound = () => fail('not_found', 'no watch with this id (unknown, deleted or ended)');

export function createWatches(deps: WatchDeps): Watches {
  const { store, limits } = deps;
  const now = () => deps.clock().getTime();
  const records = watchRecords(store, now);
  // Only the operator's watches reach WEBHOOK_ALLOW_NETWORKS; every other one public addresses.
  const publicOnly = reachableWith(() => false);
  const operatorReachable = reachableWith(deps.allowedNetwork);
  const reachableFor = (watch: Pick<WatchConfig, 'operator'>) =>
    watch.operator === true ? operatorReachable : publicOnly;
  const queueRules = {
    pendingPerWatch: limits.pendingDeliveries,
    ...(deps.onDropped ? { onDropped: deps.onDropped } : {}),
  };
  const runner = createWatchRunner(
    {
      store,
      records,
      recheck: deps.recheck,
      ...(deps.canCheck ? { canCheck: deps.canCheck } : {}),
      links: deps.links,
      clock: deps.clock,
      randomBytes: deps.randomBytes,
      log: deps.log,
      minIntervalS: limits.minIntervalS,
      sender: deps.sender,
      resolver: deps.resolver,
      reachable: reachableFor,
      timeoutMs: limits.webhookTimeoutMs,
      retryDelaysMs: deps.runner?.retryDelaysMs ?? defaultRetryDelaysMs,
      queueRules,
      ...(deps.onChecked ? { onChecked: deps.onChecked } : {}),
      ...(deps.onAttempt ? { onAttempt: deps.onAttempt } : {}),
      ...(deps.renderChat ? { renderChat: deps.renderChat } : {}),
      ...(deps.email ? { email: { ...deps.email, links: deps.links } } : {}),
    },
    { ...runnerSizes(limits), ...deps.runner },
  );
  const hashing: Hashing = { hashOf: (text) => hashOf(text, deps.digest), sameHash };

  /** An address asked for: refused without a sender, or when it is not one. */
  function emailAddressOf(text: string): string | WatchFailure {
    if (!deps.email) return emailUnavailable();
    const parsed = parseEmailAddress(text);
    return parsed.ok ? parsed.address : fail('invalid_email', parsed.reason);
  }

  /**
   * A confirmation for `address`, within the day's limits of the caller (its id) and the
   * address: the email to keep, with its code for the message, or `email_limit`.
   */
  async function confirmationFor(
    address: string,
    caller: string,
    unsubscribe?: string,
  ): Promise<{ email: WatchEmail; code: string } | WatchFailure> {
    const wait = await takeConfirmationSend(store, { caller, address }, hashing, now());
    if (wait !== undefined) {
      return {
        ...fail(
          'email_limit',
          'at most 3 confirmation messages a day go to one address, and from one caller',
        ),
        retryAfterS: wait,
      };
    }
    return newEmail(address, deps.randomBytes, hashing, now(), unsubscribe);
  }

  /** The confirmation message, queued as a delivery: retried as any, sent once its turn comes. */
  async function queueConfirmation(
    id: string,
    { email, code }: { email: WatchEmail; code: string },
  ): Promise<void> {
    const at = now();
    const delivery = {
      id: newEventId(deps.randomBytes),
      watch_id: id,
      body: '',
      attempts: 0,
      queued_at: at,
      mail: {
        to: email.address,
        kind: 'confirm' as const,
        code,
        ...(email.code_expires_at ? { expires_at: email.code_expires_at } : {}),
      },
    };
    await enqueueDeliveries(store, records, [delivery], at, queueRules);
    runner.wake();
  }

  function intervalOf(requested: number | undefined): number | WatchFailure {
    const interval = requested ?? limits.intervalS;
    if (!Number.isInteger(interval) || interval < limits.minIntervalS || interval > maxIntervalS) {
      return fail(
        'invalid_request',
        `interval_s must be a whole number of seconds from ${limits.minIntervalS} (WATCH_MIN_INTERVAL_S) to ${maxIntervalS}`,
      );
    }
    return interval;
  }

  function confirmationsOf(requested: number): number | WatchFailure {
    if (Number.isInteger(requested) && requested >= 1 && requested <= maxConfirmations) {
      return requested;
    }
    return fail(
      'invalid_request',
      `confirmations must be a whole number from 1 to ${maxConfirmations}`,
    );
  }

  /**
   * A webhook for a URL: its secret kept when the URL is the one already set. Its format is the
   * one named, else the one set for the same URL, else what the URL's host takes
   * (docs/watches.md, "Chat formats").
   */
  function webhookFor(
    text: string,
    current: Webhook | null,
    operator: boolean,
    format: string | undefined,
  ): Webhook | WatchFailure {
    const checked = checkWebhookUrl(
      text,
      operator ? operatorReachable : publicOnly,
      limits.webhookAllowPorts,
    );
    if (!checked.ok) return fail('invalid_webhook', checked.reason);
    if (format !== undefined && !isWebhookFormat(format)) {
      return fail(
        'invalid_webhook',
        'webhook_format must be standard, slack, discord, telegram or ntfy',
      );
    }
    const same = current?.url === checked.url;
    const chosen = format ?? (same ? current.format : undefined) ?? inferWebhookFormat(checked.url);
    if (same) return { ...current, format: chosen };
    return { url: checked.url, secret: newWebhookSecret(deps.randomBytes), format: chosen };
  }

  /**
   * A mail watch's own DKIM selectors, as the mail tool takes them (at most
   * `maxCallerSelectors`, each a selector, lower case, once); another kind takes none.
   */
  function selectorsOf(
    kind: WatchKind,
    requested: readonly string[] | undefined,
  ): string[] | WatchFailure | undefined {
    if (requested === undefined) return undefined;
    if (kind !== 'mail') return fail('invalid_request', 'dkim_selectors is for kind mail only');
    if (requested.length > maxCallerSelectors || !requested.every(isSelector)) {
      return fail(
        'invalid_request',
        `dkim_selectors: at most ${maxCallerSelectors} DKIM selectors (RFC 6376 §3.1)`,
      );
    }
    return [...new Set(requested.map((selector) => selector.toLowerCase()))].sort();
  }

  const formatWithoutWebhook = () => fail('invalid_webhook', 'webhook_format needs a webhook_url');

  /** The watch under `id`, while it lives. */
  async function live(id: string): Promise<WatchConfig | undefined> {
    const watch = await records.config(id);
    return watch && !hasEnded(watch, now()) ? watch : undefined;
  }

  /** The sets a caller's watch is counted in, and each one's cap. */
  function capsOf(ids: CallerPlaces) {
    return [
      {
        keys: ids.caller.map(callerWatchesKey),
        limit: limits.perCaller,
        reason: `a caller may keep ${limits.perCaller} live watches (WATCH_PER_CALLER)`,
      },
      {
        keys: ids.network.map(networkWatchesKey),
        limit: networkCap(limits),
        reason: `a network (an IPv4 /24, an IPv6 /48) may keep ${networkCap(limits)} live watches (WATCH_PER_NETWORK)`,
      },
    ];
  }

  /**
   * Takes a place for `id` under every cap, or none: the caller's, its network's, then the
   * service's. A set under the previous key's id counts too (src/operations/caller-ids.ts), so a key's
   * rotation frees nobody's places; `id` itself, already counted there, does not count twice.
   */
  async function reservePlace(id: string, ids: CallerPlaces): Promise<WatchFailure | undefined> {
    const taken: string[] = [];
    const giveBack = () => Promise.all(taken.map((key) => store.removeMembers(key, [id])));
    for (const cap of capsOf(ids)) {
      const [current, ...older] = cap.keys;
      let limit = cap.limit;
      for (const key of older) {
        limit -= (await store.members(key)).filter((member) => member !== id).length;
      }
      if (limit < 1 || !(await store.addMemberWithin(current!, id, limit, limits.ttlMs))) {
        await giveBack();
        return fail('watch_limit', cap.reason);
      }
      taken.push(current!);
    }
    if (!(await store.addMemberWithin(allWatchesKey, id, limits.max, limits.ttlMs))) {
      await giveBack();
      return fail(
        'watch_capacity',
        `the service keeps ${limits.max} live watches (WATCH_MAX): try later`,
      );
    }
    return undefined;
  }

  /** A caller's ids under the current key and the previous one, itself and its network. */
  async function placesOf(subject: string): Promise<CallerPlaces> {
    const [caller, network] = await Promise.all([
      deps.callerIds.idsOf(subject),
      deps.callerIds.idsOf(networkSubject(subject)),
    ]);
    return { caller, network };
  }

  const releasePlace = (id: string, ids: CallerPlaces) =>
    releasePlaces(store, { id, caller_hash: ids.caller[0]!, network_hash: ids.network[0]! });

  /** Whether the request carries OPERATOR_TOKEN, compared as hashes in constant time. */
  async function isOperator(credential: string | undefined): Promise<boolean> {
    if (credential === undefined || limits.operatorToken === undefined) return false;
    const [given, expected] = await Promise.all([
      hashOf(credential, deps.digest),
      hashOf(limits.operatorToken, deps.digest),
    ]);
    return sameHash(given, expected);
  }

  async function create(request: CreateRequest): Promise<CreateOutcome> {
    const kind = request.kind ?? 'ip';
    const parsed = parseWatchTarget(kind, request.target);
    if (!parsed.ok) return parsed;
    const target = parsed.text;
    const interval = intervalOf(request.interval_s);
    if (typeof interval !== 'number') return interval;
    const confirmations =
      request.confirmations === undefined ? undefined : confirmationsOf(request.confirmations);
    if (typeof confirmations === 'object') return confirmations;
    const selectors = selectorsOf(kind, request.dkim_selectors);
    if (selectors !== undefined && !Array.isArray(selectors)) return selectors;
    const operator = await isOperator(request.credential);
    if (request.webhook_format !== undefined && !request.webhook_url) return formatWithoutWebhook();
    const webhook = request.webhook_url
      ? webhookFor(request.webhook_url, null, operator, request.webhook_format)
      : null;
    if (webhook && 'error' in webhook) return webhook;
    const address = typeof request.email === 'string' ? emailAddressOf(request.email) : undefined;
    if (typeof address === 'object') return address;

    const id = newWatchId(deps.randomBytes);
    const ids = await placesOf(request.subject);
    const refused = await reservePlace(id, ids);
    if (refused) return refused;
    const dkim = selectors === undefined ? {} : { dkim_selectors: selectors };
    const outcome = await deps.recheck({ target, kind, ...dkim }).catch(async (error: unknown) => {
      await releasePlace(id, ids);
      throw error;
    });
    if (!outcome.ok) {
      await releasePlace(id, ids);
      return outcome;
    }
    const confirmation = address ? await confirmationFor(address, ids.caller[0]!) : undefined;
    if (confirmation && 'error' in confirmation) {
      await releasePlace(id, ids);
      return confirmation;
    }

    const at = deps.clock();
    const manageKey = newManageKey(deps.randomBytes);
    const watch: WatchConfig = {
      id,
      target,
      kind,
      interval_s: interval,
      webhook,
      ...(confirmation ? { email: confirmation.email } : {}),
      manage_key_hash: await hashOf(manageKey, deps.digest),
      caller_hash: ids.caller[0]!,
      network_hash: ids.network[0]!,
      ...(operator ? { operator } : {}),
      paused: false,
      ...(confirmations === undefined ? {} : { confirmations }),
      ...dkim,
      // A host name's watch keeps the address its first check checked: a name answering other
      // addresses later (a pool's rotation) is no listing change (docs/watches.md, "Host names").
      ...(parsed.target.kind === 'domain' && 'ip' in outcome.result
        ? { addresses: [outcome.result.ip] }
        : {}),
      lang: request.lang ?? 'en',
      ...(request.origin === undefined ? {} : { origin: request.origin }),
      created_at: at.toISOString(),
      expires_at: new Date(at.getTime() + limits.ttlMs).toISOString(),
    };
    const next = at.getTime() + interval * 1000;
    const state = {
      // The first check's listings are listed since it (docs/watches.md, "Listed since").
      ...stampSince(
        undefined,
        recordObservation(undefined, outcome.observation).known,
        at.toISOString(),
      ),
      checked_at: at.toISOString(),
      next_check_at: new Date(next).toISOString(),
      status: outcome.observation.status,
      history: [],
      outbox: [],
    };
    await records.putConfig(watch);
    await records.putState(watch, state);
    await store.putDue(queues.checks, id, next);
    if (confirmation) await queueConfirmation(id, confirmation);
    return {
      ok: true,
      watch: watchView(watch, state, idleWebhook, at.getTime(), { wholeEmail: true }),
      manage_key: manageKey,
      ...(webhook ? { webhook_secret: webhook.secret } : {}),
      result: outcome.result,
    };
  }

  async function update(id: string, request: UpdateRequest): Promise<UpdateOutcome> {
    const watch = await live(id);
    if (!watch) return notFound();
    // An interval set before the operator raised WATCH_MIN_INTERVAL_S stays until it is changed.
    const interval =
      request.interval_s === undefined ? watch.interval_s : intervalOf(request.interval_s);
    if (typeof interval !== 'number') return interval;
    const confirmations =
      request.confirmations === undefined ? undefined : confirmationsOf(request.confirmations);
    if (typeof confirmations === 'object') return confirmations;
    let { webhook } = watch;
    const url = request.webhook_url === undefined ? webhook?.url : request.webhook_url;
    if (request.webhook_format !== undefined && !url) return formatWithoutWebhook();
    if (request.webhook_url !== undefined || request.webhook_format !== undefined) {
      const next = url
        ? webhookFor(url, webhook, watch.operator === true, request.webhook_format)
        : null;
      if (next && 'error' in next) return next;
      webhook = next;
    }
    const address = typeof request.email === 'string' ? emailAddressOf(request.email) : undefined;
    if (typeof address === 'object') return address;
    const current = watch.email ?? null;
    // The same address keeps its unsubscribe code, and once confirmed stays so; unconfirmed, it
    // is sent a new link (the one way to a link after the last one expired).
    const confirmation =
      address === undefined || (address === current?.address && current.confirmed)
        ? undefined
        : await confirmationFor(
            address,
            request.subject === undefined
              ? watch.caller_hash
              : (await deps.callerIds.idsOf(request.subject))[0]!,
            address === current?.address ? current.unsubscribe : undefined,
          );
    if (confirmation && 'error' in confirmation) return confirmation;
    const email =
      request.email === undefined
        ? current
        : request.email === null
          ? null
          : (confirmation?.email ?? current);
    const places = await renewPlaces(watch, request.subject);
    if ('error' in places) return places;
    const at = now();
    const renewed: WatchConfig = {
      ...watch,
      ...places,
      interval_s: interval,
      webhook,
      paused: request.paused ?? watch.paused,
      ...(email === null && watch.email === undefined ? {} : { email }),
      ...(confirmations === undefined ? {} : { confirmations }),
      ...(request.lang === undefined ? {} : { lang: request.lang }),
      expires_at: new Date(at + limits.ttlMs).toISOString(),
    };
    await records.putConfig(renewed);
    // Another receiver starts afresh; the same URL sent again (a client PATCHing its whole
    // configuration, a renewal) keeps its failures and its pause (docs/watches.md, "The pause").
    if (webhook?.url !== watch.webhook?.url) await records.clearFailedEvents(id);
    const state = await records.state(id);
    if (interval !== watch.interval_s || (watch.paused && !renewed.paused)) {
      const checkedAt = state ? Date.parse(state.checked_at) : at;
      await store.putDue(queues.checks, id, Math.max(at, checkedAt + interval * 1000));
      runner.wake();
    }
    if (confirmation) await queueConfirmation(id, confirmation);
    const isNew = webhook !== null && webhook.secret !== watch.webhook?.secret;
    return {
      ok: true,
      watch: watchView(renewed, state, await records.webhookStatus(id), at, { wholeEmail: true }),
      ...(isNew ? { webhook_secret: webhook!.secret } : {}),
    };
  }

  async function remove(id: string): Promise<{ ok: true } | WatchFailure> {
    const watch = await live(id);
    if (!watch) return notFound();
    // The queue entry first: a runner that claims the watch meanwhile finds no configuration and
    // lets it go; pending deliveries find none either and are dropped unsent.
    await store.removeDue(queues.checks, id);
    await records.forget(id);
    await releasePlaces(store, watch);
    return { ok: true };
  }

  /**
   * A renewal's places: the renewing caller's, taken again within every cap (the same caller
   * under the same key keeps its place; another one, or the same after the key rotated, takes a
   * place of its own and the old one is given back), so a PATCH keeps a watch alive only as long
   * as someone within the caps renews it. Without a subject (the engine's own callers), the places
   * the watch holds are renewed as they are.
   */
  async function renewPlaces(
    watch: WatchConfig,
    subject: string | undefined,
  ): Promise<Pick<WatchConfig, 'caller_hash' | 'network_hash'> | WatchFailure> {
    const held = { caller_hash: watch.caller_hash, network_hash: watch.network_hash };
    if (subject !== undefined) {
      const ids = await placesOf(subject);
      const moved = ids.caller[0] !== watch.caller_hash || ids.network[0] !== watch.network_hash;
      if (moved) {
        const refused = await reservePlace(watch.id, ids);
        if (refused) return refused;
        if (ids.caller[0] !== watch.caller_hash) {
          await store.removeMembers(callerWatchesKey(watch.caller_hash), [watch.id]);
        }
        if (watch.network_hash !== undefined && ids.network[0] !== watch.network_hash) {
          await store.removeMembers(networkWatchesKey(watch.network_hash), [watch.id]);
        }
        return { caller_hash: ids.caller[0]!, network_hash: ids.network[0]! };
      }
    }
    await store.addMembers(callerWatchesKey(held.caller_hash), [watch.id], limits.ttlMs);
    if (held.network_hash !== undefined) {
      await store.addMembers(networkWatchesKey(held.network_hash), [watch.id], limits.ttlMs);
    }
    await store.addMembers(allWatchesKey, [watch.id], limits.ttlMs);
    return held;
  }

  async function sendTest(id: string): Promise<{ ok: true } | WatchFailure> {
    const watch = await live(id);
    if (!watch) return notFound();
    if (!watch.webhook) return fail('invalid_request', 'the watch has no webhook_url');
    if (watch.paused) {
      return fail('invalid_request', 'the watch is paused: PATCH {"paused": false} first');
    }
    const state = await records.state(id);
    const status = state?.status ?? { verdict: 'unknown' as const, score: 0, listed_on: [] };
    const event = watchEvent('watch.test', watch, deps.links(watch), status, deps.clock());
    const delivery = pendingDelivery(id, event, deps.randomBytes, now());
    // One pending test a watch, until its first attempt ends: within a timeout of its turn.
    if (!(await records.holdTest(id, delivery.id))) {
      return {
        ...fail('test_pending', 'a test of this watch is pending: its answer comes first'),
        retryAfterS: Math.ceil(limits.webhookTimeoutMs / 1000),
      };
    }
    await enqueueDeliveries(store, records, [delivery], now(), queueRules);
    runner.wake();
    return { ok: true };
  }

  return {
    create,
    async view(id, options = {}) {
      const watch = await records.config(id);
      if (!watch) return undefined;
      const [state, webhook] = await Promise.all([records.state(id), records.webhookStatus(id)]);
      // The outcome of the last delivery (refused, failed, its status) tells whoever triggers
      // deliveries what answers at the webhook's address: its manage key's holder only.
      const shown = options.withDelivery ? webhook : { ...webhook, last_delivery: null };
      return watchView(watch, state, shown, now(), { wholeEmail: options.withDelivery === true });
    },
    update,
    remove,
    sendTest,
    async emailCode(id, code) {
      const watch = await live(id);
      if (!watch) return 'not_found';
      return checkConfirmCode(watch.email, code, hashing, now());
    },
    async confirmEmail(id, code) {
      const watch = await live(id);
      if (!watch) return notFound();
      const check = await checkConfirmCode(watch.email, code, hashing, now());
      // A second POST of the same link (a double click) confirms nothing more and fails nothing.
      if (check === 'confirmed') return { ok: true };
      if (check === 'wrong') return fail('email_code_wrong', 'this link is not the watch’s');
      if (check === 'expired') {
        return fail('email_link_expired', 'this link has expired: its 24 hours are past');
      }
      const { code_hash: _hash, code_expires_at: _expires, ...email } = watch.email!;
      await records.putConfig({ ...watch, email: { ...email, confirmed: true } });
      return { ok: true };
    },
    async unsubscribeEmail(id, code) {
      const watch = await live(id);
      if (!watch) return notFound();
      // Already gone: a mail client that POSTs again is told it worked (RFC 8058 §3.2 expects
      // the POST to succeed without further interaction).
      if (!watch.email) return { ok: true };
      if (!(await isUnsubscribeCode(watch.email, code, hashing))) {
        return fail('email_code_wrong', 'this link is not the watch’s');
      }
      await records.putConfig({ ...watch, email: null });
      return { ok: true };
    },
    async checkManageKey(id, key) {
      const watch = await live(id);
      if (!watch) return 'not_found';
      return sameHash(await hashOf(key, deps.digest), watch.manage_key_hash) ? 'ok' : 'wrong';
    },
    countLive: async () => (await store.members(allWatchesKey)).length,
    async deliveryQueue() {
      const [pending, oldest] = await Promise.all([
        store.countDue(queues.deliveries),
        store.earliestDue(queues.pendingByAge),
      ]);
      const oldestAgeSeconds = oldest === undefined ? 0 : Math.max(0, now() - oldest) / 1000;
      return { pending, oldestAgeSeconds };
    },
    runner,
  };
}
