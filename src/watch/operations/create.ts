import type { DomainCheckResult, IpCheckResult, MailCheckResult } from '../../reputation/index.js';
import { readWatchTarget, recordObservation, type WatchKind } from '../kinds/index.js';
import {
  hashOf,
  idleWebhook,
  newManageKey,
  newWatchId,
  queues,
  type WatchConfig,
  type WatchLang,
  type WatchView,
  watchView,
} from '../model/index.js';
import { stampSince } from '../timeline/index.js';
import type { OperationContext } from './context.js';
import { confirmationFor, queueConfirmation } from './email-confirmation.js';
import type { WatchFailure } from './errors.js';
import {
  confirmationsOf,
  emailAddressOf,
  formatWithoutWebhook,
  intervalOf,
  selectorsOf,
  webhookFor,
} from './fields.js';
import { confirmedEmail, grantedTo, placesOf, type WatchOwner } from './owner.js';
import { releasePlace, reservePlace } from './places.js';

/** What a new watch is: its target and kind, and what it does on a change. */
export interface WatchInput {
  target: string;
  /** Absent: `ip`. */
  kind?: WatchKind;
  interval_s?: number;
  webhook_url?: string | null;
  /** standard, slack, discord, telegram or ntfy; absent: what the URL's host takes. */
  webhook_format?: string;
  /** Checks in a row that must agree before a change is reported (1 to 5). */
  confirmations?: number;
  /** A kind that takes them (mail): DKIM selectors to ask at every check, besides those found. */
  dkim_selectors?: readonly string[];
  /** Where alerts are e-mailed, once the address confirms (docs/watches.md, "E-mail"). */
  email?: string | null;
  /** Its alerts' language (absent: en). */
  lang?: WatchLang;
  /**
   * The public origin its events' links are absolute under when PUBLIC_URL is unset (the HTTP
   * routes: the request's, src/http/public-origin.ts). Its e-mails never use it: their links are
   * PUBLIC_URL's, which SMTP_URL requires.
   */
  origin?: string;
  /**
   * A subsystem's owner only (a caller's is ignored): the secret its webhook is signed with, the
   * one the subsystem signs every watch it keeps for the same user with, so one receiver verifies
   * them all (docs/watch-engine.md, "For another subsystem").
   */
  webhook_secret?: string;
  /**
   * A subsystem's owner only (a caller's is ignored): `email` confirmed already by the
   * subsystem's own double opt-in, so no confirmation message is sent and alerts go to it at once.
   */
  email_confirmed?: boolean;
}

export type CreateOutcome =
  | {
      ok: true;
      watch: WatchView;
      /** Shown once: only its hash is kept. */
      manage_key: string;
      /** Shown once, with a webhook. */
      webhook_secret?: string;
      /** The first check's result, as the kind's tool answers it. */
      result: IpCheckResult | DomainCheckResult | MailCheckResult;
    }
  | WatchFailure;

/**
 * A new watch (docs/watches.md, "Routes"): its fields read, a place taken under its owner's caps,
 * its first check run (a confirmed check, as every re-check), then kept and queued one interval
 * on. A refusal after the place was taken gives it back.
 */
export async function createWatch(
  context: OperationContext,
  input: WatchInput,
  owner: WatchOwner,
): Promise<CreateOutcome> {
  const kind = input.kind ?? 'ip';
  const read = readWatchTarget(kind, input.target);
  if (!read.ok) return read;
  const interval = intervalOf(context, input.interval_s);
  if (typeof interval !== 'number') return interval;
  const confirmations = confirmationsOf(input.confirmations);
  if (typeof confirmations === 'object') return confirmations;
  const selectors = selectorsOf(kind, input.dkim_selectors);
  if (selectors !== undefined && !Array.isArray(selectors)) return selectors;
  const places = await placesOf(context, owner);
  const { operator } = places;
  const granted = grantedTo(owner, input);
  if (input.webhook_format !== undefined && !input.webhook_url) return formatWithoutWebhook();
  const webhook = input.webhook_url
    ? webhookFor(
        context,
        input.webhook_url,
        null,
        operator,
        input.webhook_format,
        granted.webhook_secret,
      )
    : null;
  if (webhook && 'error' in webhook) return webhook;
  const address =
    typeof input.email === 'string' ? emailAddressOf(context, input.email) : undefined;
  if (typeof address === 'object') return address;

  const id = newWatchId(context.randomBytes);
  const refused = await reservePlace(context, id, places);
  if (refused) return refused;
  const dkim = selectors === undefined ? {} : { dkim_selectors: selectors };
  const target = read.text;
  const reach = operator ? { operator } : {};
  const outcome = await context
    .recheck({ target, kind, ...dkim, ...reach })
    .catch(async (error: unknown) => {
      await releasePlace(context, id, places);
      throw error;
    });
  if (!outcome.ok) {
    await releasePlace(context, id, places);
    return outcome;
  }
  const confirmation =
    address && !granted.email_confirmed
      ? await confirmationFor(context, address, {
          watch: id,
          ...(operator
            ? {}
            : { caller: places.held.caller_hash, network: places.held.network_hash }),
        })
      : undefined;
  if (confirmation && 'error' in confirmation) {
    await releasePlace(context, id, places);
    return confirmation;
  }

  const at = context.clock();
  const manageKey = newManageKey(context.randomBytes);
  const watch: WatchConfig = {
    id,
    target,
    kind,
    interval_s: interval,
    webhook,
    ...(confirmation
      ? { email: confirmation.email }
      : address
        ? { email: confirmedEmail(address, context.randomBytes) }
        : {}),
    manage_key_hash: await hashOf(manageKey, context.digest),
    ...places.held,
    ...(operator ? { operator } : {}),
    paused: false,
    ...(confirmations === undefined ? {} : { confirmations }),
    ...dkim,
    // A host name's watch keeps the address its first check checked (docs/watches.md, "Host
    // names"): its kind says what to pin.
    ...(outcome.pins ? { addresses: outcome.pins } : {}),
    lang: input.lang ?? 'en',
    ...(input.origin === undefined ? {} : { origin: input.origin }),
    created_at: at.toISOString(),
    expires_at: new Date(at.getTime() + context.limits.ttlMs).toISOString(),
  };
  const next = at.getTime() + interval * 1000;
  const { known } = recordObservation(undefined, outcome.observation);
  const state = {
    // The first check's listings are listed since it (docs/watches.md, "Listed since").
    ...known,
    facts: stampSince(undefined, known.facts, at.toISOString()),
    checked_at: at.toISOString(),
    next_check_at: new Date(next).toISOString(),
    status: outcome.observation.status,
    history: [],
    outbox: [],
  };
  await context.records.putConfig(watch);
  await context.records.putState(watch, state);
  await context.store.putDue(queues.checks, id, next);
  if (confirmation) await queueConfirmation(context, id, confirmation);
  return {
    ok: true,
    watch: watchView(watch, state, idleWebhook, at.getTime(), { wholeEmail: true }),
    manage_key: manageKey,
    ...(webhook ? { webhook_secret: webhook.secret } : {}),
    result: outcome.result,
  };
}
