import { parseMailbox } from './address.js';
import type { EmailMessage } from './sender.js';

/**
 * A watch's e-mail as it goes on the wire (docs/watches.md, "E-mail"): the content built in the
 * watch's language (src/watch/alerts/), and the headers every one carries.
 */

/** A message's words: its subject, and the same text as plain text and as HTML. */
export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

/**
 * The watch's confirmation and unsubscribe links, beside its page (`…/watch/v1/{id}/share`), so
 * absolute as the page's link is (docs/watches.md, "Absolute links").
 */
export function emailLinks(pageUrl: string) {
  const root = pageUrl.replace(/\/share$/, '');
  const withCode = (path: string, code: string) => `${root}/email/${path}?code=${code}`;
  return {
    confirm: (code: string) => withCode('confirm', code),
    unsubscribe: (code: string) => withCode('unsubscribe', code),
  };
}

export function emailMessage(input: {
  from: string;
  to: string;
  /** The delivery's id: the Message-ID's left part, the same on every attempt. */
  id: string;
  date: Date;
  content: EmailContent;
  /** An alert's one-click unsubscribe URL (RFC 8058); a confirmation has none. */
  unsubscribeUrl?: string;
}): EmailMessage {
  const domain = parseMailbox(input.from)?.address.split('@')[1] ?? 'localhost';
  return {
    from: input.from,
    to: input.to,
    ...input.content,
    // RFC 5322 §3.6.4: unique, `id-left@id-right`; the event id is 128 random bits.
    messageId: `<${input.id}@${domain}>`,
    date: input.date,
    headers: {
      // RFC 3834 §5: sent by a process, not a person, so no auto-responder answers it.
      'Auto-Submitted': 'auto-generated',
      // Microsoft's equivalent, which Exchange's out-of-office replies read instead.
      'X-Auto-Response-Suppress': 'All',
      ...(input.unsubscribeUrl
        ? {
            // RFC 2369 §3.2 and RFC 8058 §3.1: one HTTPS URI, and the POST that needs no page.
            'List-Unsubscribe': `<${input.unsubscribeUrl}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          }
        : {}),
    },
  };
}
