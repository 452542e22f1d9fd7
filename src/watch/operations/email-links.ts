import { checkConfirmCode, type CodeCheck, isUnsubscribeCode } from '../email/index.js';
import { callerWatchesKey, type WatchConfig } from '../model/index.js';
import { liveWatch, type OperationContext } from './context.js';
import { fail, notFound, type WatchFailure } from './errors.js';
import { isSubsystemOwned } from './owner.js';

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

/**
 * The one-click unsubscribe (RFC 8058): no more e-mail to that address for that watch, at once.
 * A subsystem's watch stops it for every watch its owner keeps with that address: they are one
 * user's alerts (a reports inbox's sources), sent where the user said once, so one link stops
 * them all, as a list's unsubscribe stops the list.
 */
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
  if (isSubsystemOwned(watch)) await unsubscribeSiblings(context, watch, watch.email.address);
  return { ok: true };
}

async function unsubscribeSiblings(
  context: OperationContext,
  watch: WatchConfig,
  address: string,
): Promise<void> {
  const ids = await context.store.members(callerWatchesKey(watch.caller_hash));
  for (const id of ids) {
    if (id === watch.id) continue;
    const sibling = await liveWatch(context, id);
    if (sibling?.caller_hash === watch.caller_hash && sibling.email?.address === address) {
      await context.records.putConfig({ ...sibling, email: null });
    }
  }
}
