import type { WatchEmail } from '../email/index.js';
import {
  queues,
  type WatchConfig,
  type WatchLang,
  type WatchView,
  watchView,
} from '../model/index.js';
import { liveWatch, type OperationContext } from './context.js';
import { confirmationFor, queueConfirmation } from './email-confirmation.js';
import { notFound, type WatchFailure } from './errors.js';
import {
  confirmationsOf,
  emailAddressOf,
  formatWithoutWebhook,
  intervalOf,
  webhookFor,
} from './fields.js';
import { confirmedEmail, grantedTo, mayAct, placesOf, type WatchOwner } from './owner.js';
import { renewPlaces } from './places.js';

/** What a renewal may change besides renewing: absent fields stay as they are. */
export interface WatchChanges {
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
  /** A subsystem's owner only, as on create (`WatchInput`): the secret to sign with. */
  webhook_secret?: string;
  /** A subsystem's owner only, as on create: the new `email` is confirmed already. */
  email_confirmed?: boolean;
}

export type UpdateOutcome =
  | { ok: true; watch: WatchView; /** Shown once, when the URL is new. */ webhook_secret?: string }
  | WatchFailure;

/**
 * Changes a live watch and renews it (expires_at moves WATCH_TTL_DAYS on). With an owner, the
 * watch's places are taken again under that owner's caps (the same owner keeps them); a
 * subsystem renews only its own watches.
 */
export async function updateWatch(
  context: OperationContext,
  id: string,
  changes: WatchChanges,
  owner?: WatchOwner,
): Promise<UpdateOutcome> {
  const { records, store, limits } = context;
  const watch = await liveWatch(context, id);
  if (!watch || !mayAct(watch, owner)) return notFound();
  // An interval set before the operator raised WATCH_MIN_INTERVAL_S stays until it is changed.
  const interval =
    changes.interval_s === undefined ? watch.interval_s : intervalOf(context, changes.interval_s);
  if (typeof interval !== 'number') return interval;
  const confirmations = confirmationsOf(changes.confirmations);
  if (typeof confirmations === 'object') return confirmations;
  const granted = grantedTo(owner, changes);
  let { webhook } = watch;
  const url = changes.webhook_url === undefined ? webhook?.url : changes.webhook_url;
  if (changes.webhook_format !== undefined && !url) return formatWithoutWebhook();
  if (
    changes.webhook_url !== undefined ||
    changes.webhook_format !== undefined ||
    granted.webhook_secret !== undefined
  ) {
    const next = url
      ? webhookFor(
          context,
          url,
          webhook,
          watch.operator === true,
          changes.webhook_format,
          granted.webhook_secret,
        )
      : null;
    if (next && 'error' in next) return next;
    webhook = next;
  }
  const address =
    typeof changes.email === 'string' ? emailAddressOf(context, changes.email) : undefined;
  if (typeof address === 'object') return address;
  const current = watch.email ?? null;
  // The same address keeps its unsubscribe code, and once confirmed stays so; unconfirmed, it
  // is sent a new link (the one way to a link after the last one expired).
  const confirmation =
    address === undefined ||
    (address === current?.address && current.confirmed) ||
    granted.email_confirmed
      ? undefined
      : await confirmationFor(
          context,
          address,
          {
            watch: id,
            ...(owner === undefined ? askerOf(watch) : await confirmingAsker(context, owner)),
          },
          address === current?.address ? current.unsubscribe : undefined,
        );
  if (confirmation && 'error' in confirmation) return confirmation;
  const email =
    changes.email === undefined
      ? current
      : changes.email === null
        ? null
        : (confirmation?.email ??
          (granted.email_confirmed && address !== undefined && address !== current?.address
            ? confirmedEmail(address, context.randomBytes)
            : granted.email_confirmed && current
              ? { ...withoutCode(current), confirmed: true }
              : current));
  const places = await renewPlaces(context, watch, owner);
  if ('error' in places) return places;
  const at = context.now();
  const { network_hash: _held, ...kept } = watch;
  const renewed: WatchConfig = {
    ...kept,
    ...places,
    interval_s: interval,
    webhook,
    paused: changes.paused ?? watch.paused,
    ...(email === null && watch.email === undefined ? {} : { email }),
    ...(confirmations === undefined ? {} : { confirmations }),
    ...(changes.lang === undefined ? {} : { lang: changes.lang }),
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
    context.wake();
  }
  if (confirmation) await queueConfirmation(context, id, confirmation);
  const isNew = webhook !== null && webhook.secret !== watch.webhook?.secret;
  return {
    ok: true,
    watch: watchView(renewed, state, await records.webhookStatus(id), at, { wholeEmail: true }),
    ...(isNew ? { webhook_secret: webhook!.secret } : {}),
  };
}

/** An address confirmed by its owner's own opt-in: its pending link's code is no longer kept. */
function withoutCode(email: WatchEmail): WatchEmail {
  const { code_hash: _hash, code_expires_at: _expires, ...kept } = email;
  return kept;
}

/** The caller and network a confirmation is counted for: the owner's ids. */
function askerOf(held: Pick<WatchConfig, 'caller_hash' | 'network_hash'>) {
  return { caller: held.caller_hash, network: held.network_hash };
}

/** Whose allowances a renewing owner's confirmation counts under: none of a caller's for the operator. */
async function confirmingAsker(context: OperationContext, owner: WatchOwner) {
  const places = await placesOf(context, owner);
  return places.operator ? {} : askerOf(places.held);
}
