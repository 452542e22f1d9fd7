import { renderEmail } from './alerts/index.js';
import {
  type EmailAnswer,
  emailLinks,
  emailMessage,
  type EmailSender,
  giveBackAllowance,
  maskAddressesIn,
  type PendingEmail,
  retakeAllowance,
} from './email/index.js';
import { cleanThirdPartyText, type Logger } from '../lib/index.js';
import {
  hasEnded,
  type PendingDelivery,
  type RetryRules,
  retryDelay,
  retryOrDrop,
  type WatchConfig,
  type WatchEvent,
  type WatchLinks,
  type WatchRecords,
} from './model/index.js';

/** What an e-mail delivery needs: the sender, ALERT_FROM, the watch's links. */
export interface EmailDeps {
  sender: EmailSender;
  from: string;
  /**
   * A watch's links under PUBLIC_URL (`configuredLinks`), never the origin it was stored with:
   * every link of a message is the operator's, built when the message is sent.
   */
  links: (id: string) => WatchLinks;
  /** Hears how each attempt ended (the metrics' e-mails by outcome). */
  onAttempt?: (outcome: EmailAnswer['kind']) => void;
}

/** What an e-mail attempt runs on: the delivery step's own, of which it is a part. */
export interface EmailStepDeps extends RetryRules {
  records: WatchRecords;
  clock: () => Date;
  log: Logger;
  /** A confirmation's retries: minutes apart, for its link lives a day (schedule.ts). */
  confirmRetryDelaysMs: readonly number[];
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
 * a failed attempt is logged at `warn` and kept for the manage key's holder to see, then retried
 * (an alert at the webhooks' delays, a confirmation within minutes), unless the relay refused the
 * message for good (a 5xx to it: RFC 5321 §4.2.1). A confirmation that failed gives its units of
 * the day's allowances back.
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
  const watchLinks = deps.email.links(watch.id);
  const links = emailLinks(watchLinks.page_url);
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
          event: withLinks(JSON.parse(pending.body) as WatchEvent, watchLinks),
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
  const { allowance } = pendingEmail;
  const now = deps.clock();
  if (answer.kind === 'sent') {
    // Units given back after an earlier failure are counted again: this message went out.
    if (allowance && pendingEmail.returned)
      await retakeAllowance(deps.store, allowance, now.getTime());
    await deps.records.putLastEmail(watch, { outcome: 'sent', kind, at: now.toISOString() });
    return done();
  }
  const attempts = pending.attempts + 1;
  const reason = failureReason(answer.reason);
  const delays = kind === 'confirm' ? deps.confirmRetryDelaysMs : deps.retryDelaysMs;
  const delay = answer.permanent === true ? undefined : retryDelay(attempts, delays);
  deps.log('warn', 'e-mail delivery failed', {
    watch: watch.id,
    event: pending.id,
    kind,
    attempt: attempts,
    reason,
    ...(delay === undefined ? {} : { retry_in_s: Math.round(delay / 1000) }),
    ...(answer.permanent === true ? { permanent: true } : {}),
  });
  await deps.records.putLastEmail(watch, {
    outcome: 'failed',
    kind,
    at: now.toISOString(),
    reason,
    ...(delay === undefined ? {} : { retry_at: new Date(now.getTime() + delay).toISOString() }),
  });
  // A confirmation not sent costs no one a confirmation: asking for a new link stays possible.
  let tried: PendingDelivery = { ...pending, attempts };
  if (allowance && !pendingEmail.returned) {
    await giveBackAllowance(deps.store, allowance, now.getTime());
    tried = { ...tried, email: { ...pendingEmail, returned: true } };
  }
  if (delay === undefined) return done();
  await retryOrDrop({ ...deps, retryDelaysMs: delays }, tried, now.getTime(), done);
}

/**
 * Why an attempt failed, as the log and the manage key's holder read it: the relay's words, one
 * line of at most 300 characters, every address in it masked (a reply names the recipient).
 */
function failureReason(reason: string): string {
  return cleanThirdPartyText(maskAddressesIn(reason));
}

/**
 * The event with the watch's links of now: an event kept since its check (or queued by an
 * earlier version, under the origin of the request that created the watch) is mailed with
 * PUBLIC_URL's.
 */
function withLinks(event: WatchEvent, links: WatchLinks): WatchEvent {
  return { ...event, data: { ...event.data, watch: { ...event.data.watch, ...links } } };
}
