import type { ReportKind } from './read/index.js';
import type { Inbox } from './store.js';

/**
 * How reports come in, whatever the door (docs/reports.md, "How reports come in"): the upload
 * route gives a body and its media type; the SMTP listener, the IMAP poller and Email Workers
 * give a message and the address it was sent to. One implementation reads, checks and keeps
 * them; each door says its outcome its own way (a JSON error, an SMTP reply, an IMAP folder).
 */

/** Why a report or a message was not taken: the codes of the API's errors (src/http/errors.ts). */
export type IntakeRefusal =
  | { code: 'invalid_report'; reason: string }
  | { code: 'report_too_large'; reason: string }
  | { code: 'unsupported_media_type'; reason: string }
  | { code: 'report_domain_mismatch'; reason: string }
  /** No inbox has this address (SMTP 550 5.1.1). */
  | { code: 'unknown_recipient'; reason: string }
  /** The inbox's domain does not name its address yet (SMTP 550 5.7.1). */
  | { code: 'inbox_unverified'; reason: string };

/** One report taken in, as the upload's answer lists it. */
export interface TakenReport {
  kind: ReportKind;
  org: string;
  report_id: string;
  /** ISO 8601 times. */
  begin: string;
  end: string;
  records: number;
  messages: number;
  duplicate: boolean;
}

export type IntakeOutcome =
  { ok: true; inboxId: string; received: TakenReport[] } | ({ ok: false } & IntakeRefusal);

export interface ReportIntake {
  /** A report file, or a whole message (`message/rfc822`), from the inbox's key holder. */
  upload(inbox: Inbox, body: Uint8Array, mediaType: string): Promise<IntakeOutcome>;
  /** Whether mail to `recipient` would be taken (asked at SMTP RCPT TO, before the data). */
  accepts(
    recipient: string,
  ): Promise<
    | { ok: true }
    | ({ ok: false } & Extract<IntakeRefusal, { code: 'unknown_recipient' | 'inbox_unverified' }>)
  >;
  /** A message sent to `recipient`, by SMTP, IMAP or Email Workers. */
  mail(
    recipient: string,
    message: Uint8Array,
    via: 'smtp' | 'imap' | 'email',
  ): Promise<IntakeOutcome>;
}
