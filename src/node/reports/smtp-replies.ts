import type { IntakeOutcome, IntakeRefusal } from '../../reports/index.js';

/**
 * What the SMTP door answers (docs/reports.md, "By SMTP"): each of the intake's refusals as an
 * RFC 5321 §4.2 reply code with the RFC 3463 enhanced status code that names its cause, written
 * at the head of the reply's text, so a sending MTA's bounce says why in the words of the API's
 * errors. A refusal is permanent (5xx: sent again it would be refused again); only a failure of
 * the service itself is temporary (4xx), so that the sender keeps the report and tries later.
 */

export interface SmtpReply {
  code: number;
  /** RFC 3463 §2: class.subject.detail. */
  status: string;
  text: string;
}

/** One row per refusal code: the reply code, and the RFC 3463 status with its meaning. */
export const refusalReplies: Record<IntakeRefusal['code'], { code: number; status: string }> = {
  // RFC 3463 §3.2 X.1.1 "Bad destination mailbox address": no inbox has it.
  unknown_recipient: { code: 550, status: '5.1.1' },
  // §3.8 X.7.1 "Delivery not authorized, message refused": the domain has not named the inbox.
  inbox_unverified: { code: 550, status: '5.7.1' },
  // §3.7 X.6.0 "Other or undefined media error": the content is no report we can read.
  invalid_report: { code: 550, status: '5.6.0' },
  // RFC 5321 §4.5.3.1.10 (552 for a message over the size limit), RFC 3463 §3.4 X.3.4 "Message
  // too big for system".
  report_too_large: { code: 552, status: '5.3.4' },
  // §3.7 X.6.1 "Media not supported"; 554 "Transaction failed", RFC 5321 §4.2.3.
  unsupported_media_type: { code: 554, status: '5.6.1' },
  // §3.8 X.7.1: a report about another domain is not this inbox's to take.
  report_domain_mismatch: { code: 550, status: '5.7.1' },
};

/** RFC 5321 §4.2.2 451 "local error in processing", RFC 3463 §3.4 X.3.0: the sender retries. */
export const failureReply: SmtpReply = {
  code: 451,
  status: '4.3.0',
  text: 'the reports could not be kept just now; try again later',
};

/** RFC 3463 §3.8 X.7.0 "Other or undefined security status", as a 421 that closes the connection. */
export function tooManyConnections(scope: 'client' | 'server'): SmtpReply {
  return {
    code: 421,
    status: '4.7.0',
    text:
      scope === 'client'
        ? 'too many connections from your address; try again later'
        : 'too many connections; try again later',
  };
}

export function refusalReply(refusal: IntakeRefusal): SmtpReply {
  return { ...refusalReplies[refusal.code], text: refusal.reason };
}

/** 250 with RFC 3463 §3.7 X.6.0's success form: what was taken, and how many were copies. */
export function takenReply(outcomes: Extract<IntakeOutcome, { ok: true }>[]): SmtpReply {
  const received = outcomes.flatMap((outcome) => outcome.received);
  const copies = received.filter((report) => report.duplicate).length;
  const reports = `${received.length} report${received.length === 1 ? '' : 's'}`;
  return {
    code: 250,
    status: '2.6.0',
    text: `${reports} taken${copies > 0 ? `, ${copies} of them already kept` : ''}`,
  };
}

/** RFC 5321 §4.5.3.1.5: a reply line is at most 512 octets, CRLF included. */
const maxTextLength = 400;

/**
 * The reply's text as a line may carry it: RFC 5321 §4.2 allows printable US-ASCII only, so
 * typographic quotes become plain ones, any other character outside it a `?`, and a long reason
 * is cut.
 */
export function replyText(reply: SmtpReply): string {
  const text = `${reply.status} ${reply.text}`
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[^\x20-\x7e]/g, '?');
  return text.length > maxTextLength ? `${text.slice(0, maxTextLength - 3)}...` : text;
}

/** The reply as the error smtp-server answers a command or a message with. */
export function replyError(reply: SmtpReply): Error & { responseCode: number } {
  return Object.assign(new Error(replyText(reply)), { responseCode: reply.code });
}
