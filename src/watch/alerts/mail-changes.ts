import { isMessageKey, type Translate } from '../../i18n/index.js';
import type { MailChange } from '../kinds/index.js';

/**
 * A mail watch's change as one line of text in the watch's language (docs/watches.md, "Mail
 * watches"): what changed, from what to what, and what the check says of it now. The chat
 * messages and the watch's page both read it.
 */

/** Where each kind of change finds the names of its subject and of its statuses. */
const names: Record<MailChange['what'], { subject?: string; status: string; label?: string }> = {
  requirement: { subject: 'mail.rule', status: 'mail.status' },
  verdict: { subject: 'mail.provider', status: 'mail.verdict' },
  certificate: { status: 'watch.mail.cert', label: 'watch.mail.certificate' },
  mta_sts: { status: 'mail.mtaSts', label: 'mail.mtaSts' },
  dkim: { status: 'watch.mail.dkim', label: 'watch.mail.dkimSelector' },
};

/** The catalog's text for `prefix.value`, or the value itself when the catalog has none. */
function named(t: Translate, prefix: string | undefined, value: string): string {
  const key = `${prefix}.${value}`;
  return prefix !== undefined && isMessageKey(key) ? t(key) : value;
}

export function mailChangeText(change: MailChange, t: Translate): string {
  const { subject, status, label } = names[change.what];
  const what =
    label !== undefined && isMessageKey(label)
      ? change.what === 'mta_sts'
        ? t(label)
        : `${t(label)} ${change.subject}`
      : named(t, subject, change.subject);
  return t('watch.mail.change', {
    what,
    from: named(t, status, change.from),
    to: named(t, status, change.to),
  });
}
