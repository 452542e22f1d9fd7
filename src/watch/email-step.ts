import { renderEmail } from './alerts/index.js';
import {
  type EmailAnswer,
  emailLinks,
  emailMessage,
  type EmailSender,
  type PendingEmail,
} from './email/index.js';
import type { Logger } from '../lib/index.js';
import {
  hasEnded,
  type LinksOf,
  type PendingDelivery,
  type RetryRules,
  retryOrDrop,
  type WatchConfig,
  type WatchEvent,
  type WatchRecords,
} from './model/index.js';

/** What an e-mail delivery needs: the sender, ALERT_FROM, the watch's links. */
export interface EmailDeps {
  sender: EmailSender;
  from: string;
  links: LinksOf;
  /** Hears how each attempt ended (the metrics' e-mails by outcome). */
  onAttempt?: (outcome: EmailAnswer['kind']) => void;
}

/** What an e-mail attempt runs on: the delivery step's own, of which it is a part. */
export interface EmailStepDeps extends RetryRules {
  records: WatchRecords;
  clock: () => Date;
  log: Logger;
  /** E-mail alerts, when the platform can send them (SMTP_URL and ALERT_FROM). */
  email?: EmailDeps;
  /**
   * The zone list's meanings in Russian, by their English (src/share's `russianMeanings`): an
   * alert in Russian says what a list's code means in Russian.
   */
  meanings?: ReadonlyMap<string, string>;
}

/**
 * One attempt at an e-mail (docs/watches.md, "E-mail"): sent only while its address is still the
 * watch's, and confirmed for an alert; a confirmation only while its link lives. It goes to the
 * operator's SMTP server, not to a stranger's receiver, so no one-at-a-time rule and no pause:
 * a failed attempt is retried at the webhooks' delays, then dropped.
 */
export async function emailOnce(
  deps: EmailStepDeps,
  watch: WatchConfig | undefined,
  pending: PendingDelivery,
  pendingEmail: PendingEmail,
  done: () => Promise<void>,
): Promise<void> {
  const at = deps.clock();
  const email = watch?.email;
  const { to, kind } = pendingEmail;
  if (!deps.email || !watch || hasEnded(watch, at.getTime()) || email?.address !== to) {
    return done();
  }
  if (kind === 'alert' ? !email.confirmed : email.confirmed || !pendingEmail.code) return done();
  // A confirmation whose link has expired, or been replaced by a newer one, would only mislead.
  if (
    kind === 'confirm' &&
    (Date.parse(email.code_expires_at ?? '') <= at.getTime() ||
      (pendingEmail.expires_at !== undefined && pendingEmail.expires_at !== email.code_expires_at))
  ) {
    return done();
  }
  const { page_url } = deps.email.links(watch);
  const links = emailLinks(page_url);
  const unsubscribeUrl = links.unsubscribe(email.unsubscribe);
  const content =
    kind === 'confirm'
      ? renderEmail({
          kind: 'confirm',
          watch,
          confirmUrl: links.confirm(pendingEmail.code!),
          expiresAt: email.code_expires_at!,
        })
      : renderEmail({
          kind: 'alert',
          event: JSON.parse(pending.body) as WatchEvent,
          watch,
          state: await deps.records.state(watch.id),
          unsubscribeUrl,
          ...(deps.meanings ? { meanings: deps.meanings } : {}),
        });
  const message = emailMessage({
    from: deps.email.from,
    to,
    id: pending.id,
    date: at,
    content,
    ...(kind === 'alert' ? { unsubscribeUrl } : {}),
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
