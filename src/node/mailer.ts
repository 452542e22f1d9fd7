import { createTransport } from 'nodemailer';
import { cleanThirdPartyText, type Logger } from '../lib/index.js';
import type { EmailAnswer, EmailSender, RelayCheck } from '../watch/index.js';

/**
 * The watches' e-mail on Node (docs/watches.md, "E-mail"): nodemailer's SMTP transport on
 * SMTP_URL, one per service (never a module singleton). `smtps://` is TLS from the first byte
 * (RFC 8314 §3.3, port 465); `smtp://` upgrades with STARTTLS when the server offers it
 * (RFC 3207). Each stage of a connection is bounded, so a server that stops answering costs an
 * attempt its timeout, and the attempt is retried as a webhook's is.
 */
export function createNodeMailer(smtpUrl: string, timeoutMs: number): EmailSender {
  const transport = createTransport({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    async send(message) {
      try {
        await transport.sendMail({
          from: message.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId: message.messageId,
          date: message.date,
          headers: message.headers,
        });
        return { kind: 'sent' };
      } catch (error) {
        return failed(error);
      }
    },
    // nodemailer's verify: connect, greeting, EHLO, STARTTLS when offered, AUTH, then QUIT.
    async verify(): Promise<RelayCheck> {
      try {
        await transport.verify();
        return { ok: true };
      } catch (error) {
        return { ok: false, reason: (error as Error).message };
      }
    },
  };
}

/** The commands that carry the message itself: a 5xx there refuses it, or its recipient. */
const messageCommands = new Set(['MAIL FROM', 'RCPT TO', 'DATA']);

/**
 * A failed send, with why (nodemailer's messages carry no credentials). Permanent only for a
 * permanent reply (nodemailer's `permanent`, RFC 5321 §4.2.1) to the message's own commands: a
 * 5xx to AUTH or EHLO is the relay's setup, which the operator may mend, so it is retried.
 */
function failed(error: unknown): EmailAnswer {
  const failure = error as Error & { permanent?: boolean; command?: string };
  return {
    kind: 'failed',
    reason: failure.message,
    permanent: failure.permanent === true && messageCommands.has(failure.command ?? ''),
  };
}

/**
 * SMTP_URL tried once at start (connect, EHLO, STARTTLS when offered, AUTH), so a relay that
 * cannot work (down, an expired or untrusted certificate, a wrong password) says why in one
 * `warn` line instead of a first e-mail failing in silence. The service starts either way: the
 * relay may come back, and e-mails are retried.
 */
export async function checkRelayAtStart(sender: EmailSender, log: Logger): Promise<void> {
  if (!sender.verify) return;
  const check = await sender.verify();
  if (check.ok) {
    log('info', 'SMTP_URL answers: connect, EHLO, STARTTLS and AUTH passed');
    return;
  }
  const reason = cleanThirdPartyText(check.reason);
  log('warn', `SMTP_URL does not work: ${reason}; e-mails will fail until it does`, { reason });
}
