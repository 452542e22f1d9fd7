import { createTransport } from 'nodemailer';
import type { EmailSender } from '../watch/index.js';

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
        // The reason is the operator's log's; nodemailer's messages carry no credentials.
        return { kind: 'failed', reason: (error as Error).message };
      }
    },
  };
}
