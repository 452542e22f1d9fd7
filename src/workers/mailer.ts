import { WorkerMailer } from 'worker-mailer';
import { type EmailSender, parseMailbox } from '../watch/index.js';

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
      try {
        // worker-mailer takes the From as a name and an address apart.
        const from = parseMailbox(message.from);
        await WorkerMailer.send(options, {
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
        return { kind: 'failed', reason: (error as Error).message };
      }
    },
  };
}
