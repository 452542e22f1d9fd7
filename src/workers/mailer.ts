import { WorkerMailer } from 'worker-mailer';
import {
  type EmailAnswer,
  type EmailSender,
  isPermanentReply,
  parseMailbox,
} from '../watch/index.js';

/**
 * The watches' e-mail on Workers (docs/edge.md, "E-mail on Workers"): worker-mailer, SMTP over
 * `cloudflare:sockets`, one connection per message. `smtps://` is TLS from the first byte
 * (RFC 8314 §3.3, port 465); `smtp://` upgrades with STARTTLS when the server offers it
 * (RFC 3207, port 587). Cloudflare refuses outbound port 25, which is no submission port anyway
 * (RFC 6409 §3.1): SMTP_URL names the relay's 465 or 587.
 */
export function createWorkersMailer(smtpUrl: string, timeoutMs: number): EmailSender {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const options = {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
    secure,
    startTls: !secure,
    ...(url.username === ''
      ? {}
      : {
          credentials: {
            username: decodeURIComponent(url.username),
            password: decodeURIComponent(url.password),
          },
          authType: ['plain', 'login'] as ('plain' | 'login')[],
        }),
    socketTimeoutMs: timeoutMs,
    responseTimeoutMs: timeoutMs,
    // Its log lines would go to the console without our format; failures come back as errors.
    logLevel: 4,
  };
  return {
    async send(message) {
      let mailer: WorkerMailer | undefined;
      try {
        // worker-mailer takes the From as a name and an address apart.
        const from = parseMailbox(message.from);
        // Its own `send` leaves the connection open when the relay refuses the message: this one
        // ends it (QUIT) whatever the answer.
        mailer = await WorkerMailer.connect(options);
        await mailer.send({
          from: from
            ? { email: from.address, ...(from.name ? { name: from.name } : {}) }
            : message.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          headers: {
            ...message.headers,
            'Message-ID': message.messageId,
            Date: message.date.toUTCString(),
          },
        });
        return { kind: 'sent' };
      } catch (error) {
        return failed((error as Error).message);
      } finally {
        await mailer?.close().catch(() => {});
      }
    },
  };
}

/**
 * worker-mailer's words for a reply refused to the message's own commands, the reply's code
 * after them: `Invalid MAIL FROM: <…> 550 …`, `Invalid RCPT TO: <…> [NOTIFY=…] 550 …`, `Failed to
 * send DATA: 554 …`, `Failed send email body: 552 …`.
 */
const messageReply =
  /^(?:Invalid (?:MAIL FROM|RCPT TO): <[^>]*>(?: \S+=\S+)* |Failed to send DATA: |Failed send email body: )(\d{3})\b/;

/** A failed send, permanent for a 5xx reply to the message (RFC 5321 §4.2.1), as on Node. */
function failed(reason: string): EmailAnswer {
  const code = messageReply.exec(reason)?.[1];
  return {
    kind: 'failed',
    reason,
    permanent: code !== undefined && isPermanentReply(Number(code)),
  };
}
