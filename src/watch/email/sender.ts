/**
 * What the runtime does to send one e-mail (a Platform member, docs/watches.md, "E-mail"): hand a
 * built message to the operator's SMTP_URL. Node sends it with nodemailer, Workers with
 * worker-mailer over `cloudflare:sockets` (docs/edge.md, "E-mail on Workers").
 */

export interface EmailMessage {
  /** ALERT_FROM, as the operator wrote it. */
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** `<id@domain>`, the same on every attempt (RFC 5322 §3.6.4), so a retry is the same message. */
  messageId: string;
  date: Date;
  /** Auto-Submitted, List-Unsubscribe, List-Unsubscribe-Post. */
  headers: Record<string, string>;
}

/**
 * `sent`: the server took the message (2xx to the end of DATA); `failed`, with why, for the log
 * and the manage key's holder. `permanent`: the relay refused this message or its recipient with
 * a 5xx reply (RFC 5321 §4.2.1: the same message would be refused again), so it is not retried.
 */
export type EmailAnswer =
  { kind: 'sent' } | { kind: 'failed'; reason: string; permanent?: boolean };

/** Whether the relay answers at all: connect, EHLO, STARTTLS when offered, AUTH. */
export type RelayCheck = { ok: true } | { ok: false; reason: string };

export interface EmailSender {
  send(message: EmailMessage): Promise<EmailAnswer>;
  /** Tries SMTP_URL without sending (at start, on Node), so a relay that cannot work says so. */
  verify?(): Promise<RelayCheck>;
}

/**
 * RFC 5321 §4.2.1: a 5yz reply is a permanent negative completion. 503 (bad sequence of commands)
 * is the session's state, not the message's, so it is not.
 */
export function isPermanentReply(code: number): boolean {
  return code >= 500 && code < 600 && code !== 503;
}
