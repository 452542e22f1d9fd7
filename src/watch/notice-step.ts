import { noticeRequest, renderNoticeEmail } from './alerts/index.js';
import { attemptDelivery, type DeliveryStepDeps } from './delivery-step.js';
import { emailMessage } from './email/index.js';
import { type Notice, type NoticeEvent, type PendingDelivery, retryOrDrop } from './model/index.js';

/**
 * One attempt at a subsystem's notice (docs/watch-engine.md, "Notices"), with a watch's delivery
 * rules where they apply: a webhook is signed with the subsystem's secret, resolved to a public
 * address at each attempt and drawn in its chat format; a 2xx or a 410 ends it, anything else is
 * retried at the webhooks' delays (5 s, 1 h, 24 h) with the same `webhook-id`. An e-mail goes to
 * the operator's SMTP server and is retried the same way. A notice has no watch, so no pause and
 * no attempt held per watch: a subsystem sends few, and its pending ones are capped per owner.
 */
export async function noticeOnce(
  deps: DeliveryStepDeps,
  pending: PendingDelivery,
  notice: Notice,
  done: () => Promise<void>,
): Promise<void> {
  const at = deps.clock();
  const retry = async (reason: string) => {
    const attempts = pending.attempts + 1;
    deps.log('info', 'notice delivery failed', {
      owner: notice.owner,
      event: pending.id,
      attempt: attempts,
      reason,
    });
    await retryOrDrop(deps, { ...pending, attempts }, deps.clock().getTime(), done);
  };
  if (notice.email) {
    const mail = deps.email;
    if (!mail) return done();
    const { to, confirm, unsubscribe_url: unsubscribeUrl } = notice.email;
    const content = confirm
      ? renderNoticeEmail({
          kind: 'confirm',
          lang: notice.lang,
          domain: confirm.domain,
          confirmUrl: confirm.url,
          expiresAt: confirm.expires_at,
        })
      : renderNoticeEmail({
          kind: 'alert',
          event: JSON.parse(pending.body) as NoticeEvent,
          lang: notice.lang,
          unsubscribeUrl: unsubscribeUrl ?? '',
        });
    const answer = await mail.sender.send(
      emailMessage({
        from: mail.from,
        to,
        id: pending.id,
        date: at,
        content,
        ...(unsubscribeUrl ? { unsubscribeUrl } : {}),
      }),
    );
    mail.onAttempt?.(answer.kind);
    return answer.kind === 'sent' ? done() : retry(answer.reason);
  }
  const webhook = notice.webhook;
  if (!webhook) return done();
  const attempt = await attemptDelivery(
    { ...deps, reachable: deps.reachable(notice) },
    webhook.url,
    webhook.secret,
    pending.id,
    noticeRequest({
      format: webhook.format ?? 'standard',
      body: pending.body,
      lang: notice.lang,
      url: webhook.url,
    }),
  );
  deps.onAttempt?.(attempt.outcome);
  if (attempt.outcome === 'delivered' || attempt.outcome === 'gone') return done();
  return retry(attempt.reason ?? `HTTP ${attempt.status}`);
}
