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

/** `sent`: the server took the message (2xx to the end of DATA); `failed`, with why, for the log. */
export type EmailAnswer = { kind: 'sent' } | { kind: 'failed'; reason: string };

export interface EmailSender {
  send(message: EmailMessage): Promise<EmailAnswer>;
}
