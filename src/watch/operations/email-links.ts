import { checkConfirmCode, type CodeCheck, isUnsubscribeCode } from '../email/index.js';
import { liveWatch, type OperationContext } from './context.js';
import { fail, notFound, type WatchFailure } from './errors.js';

/**
 * The links of a watch's e-mails (docs/watches.md, "E-mail"): what a confirmation link's code
 * finds, its POST that confirms the address, and the one-click unsubscribe.
 */

/** What a confirmation link's code finds now, without changing anything (the page its GET shows). */
export async function emailCode(
  context: OperationContext,
  id: string,
  code: string,
): Promise<CodeCheck | 'not_found'> {
  const watch = await liveWatch(context, id);
  if (!watch) return 'not_found';
  return checkConfirmCode(watch.email, code, context.hashing, context.now());
}

export async function confirmEmail(
  context: OperationContext,
  id: string,
  code: string,
): Promise<{ ok: true } | WatchFailure> {
  const watch = await liveWatch(context, id);
  if (!watch) return notFound();
  const check = await checkConfirmCode(watch.email, code, context.hashing, context.now());
  // A second POST of the same link (a double click) confirms nothing more and fails nothing.
  if (check === 'confirmed') return { ok: true };
  if (check === 'wrong') return fail('email_code_wrong', 'this link is not the watch’s');
  if (check === 'expired') {
    return fail('email_link_expired', 'this link has expired: its 24 hours are past');
  }
  const { code_hash: _hash, code_expires_at: _expires, ...email } = watch.email!;
  await context.records.putConfig({ ...watch, email: { ...email, confirmed: true } });
  return { ok: true };
}

/** The one-click unsubscribe (RFC 8058): no more e-mail to that address for that watch, at once. */
export async function unsubscribeEmail(
  context: OperationContext,
  id: string,
  code: string,
): Promise<{ ok: true } | WatchFailure> {
  const watch = await liveWatch(context, id);
  if (!watch) return notFound();
  // Already gone: a mail client that POSTs again is told it worked (RFC 8058 §3.2 expects the
  // POST to succeed without further interaction).
  if (!watch.email) return { ok: true };
  if (!(await isUnsubscribeCode(watch.email, code, context.hashing))) {
    return fail('email_code_wrong', 'this link is not the watch’s');
  }
  await context.records.putConfig({ ...watch, email: null });
  return { ok: true };
}
