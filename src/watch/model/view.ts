import { type EmailDelivery, emailView } from '../email/index.js';
import { hasEnded } from './records.js';
import {
  defaultConfirmations,
  type WatchConfig,
  type WatchState,
  type WatchView,
  type WebhookStatus,
} from './schemas.js';
import { withSince } from '../timeline/index.js';

/**
 * What anyone with a watch's id may read (docs/watches.md, "Routes"): its target, schedule,
 * status and history, and how its webhook fares, but never the manage key, the secret or the
 * webhook URL beyond its origin (the path often carries a receiver's own secret).
 */
export function watchView(
  watch: WatchConfig,
  state: WatchState | undefined,
  webhook: WebhookStatus,
  at: number,
  /**
   * The manage key's holder sees the whole e-mail address, and the last attempt at an e-mail
   * (`lastEmail`); anyone else a masked address.
   */
  { wholeEmail = false, lastEmail }: { wholeEmail?: boolean; lastEmail?: EmailDelivery } = {},
): WatchView {
  return {
    id: watch.id,
    target: watch.target,
    kind: watch.kind,
    interval_s: watch.interval_s,
    paused: watch.paused,
    confirmations: watch.confirmations ?? defaultConfirmations,
    ...(watch.addresses ? { addresses: watch.addresses } : {}),
    ...(watch.dkim_selectors ? { dkim_selectors: watch.dkim_selectors } : {}),
    ...(state?.resolves_to ? { resolves_to: state.resolves_to } : {}),
    lang: watch.lang ?? 'en',
    created_at: watch.created_at,
    expires_at: watch.expires_at,
    ended: hasEnded(watch, at),
    checked_at: state?.checked_at ?? null,
    next_check_at: state?.next_check_at ?? null,
    // Each listing with the time the watch first recorded it, where it knows (docs/watches.md).
    status: state
      ? { ...state.status, listed_on: withSince(state.status.listed_on, state.facts) }
      : null,
    history: state?.history ?? [],
    webhook: watch.webhook
      ? {
          origin: new URL(watch.webhook.url).origin,
          format: watch.webhook.format ?? 'standard',
          ...webhook,
        }
      : null,
    email: emailView(watch.email, wholeEmail, lastEmail),
  };
}
