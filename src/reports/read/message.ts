import PostalMime, { type Address, addressParser, type Attachment, type Email } from 'postal-mime';
import { type Reading, readReportFile, sniffContent } from './content.js';
import { invalidReport, ReportReadError } from './errors.js';
import type { ParsedReport } from './model.js';
import { utf8 } from '../../lib/index.js';

/**
 * Reports sent by mail (RFC 7489 §7.2.1.1, RFC 8460 §5.3): a message parsed with postal-mime (the
 * same parser on Node and Workers), each attachment that is a report read, and the recipients a
 * mailbox keeps in the headers, which route the message to its inbox.
 */

export interface ReadMessage {
  reports: ParsedReport[];
  /** Delivered-To, X-Original-To, To, then Cc addresses: lower case, each once. */
  recipients: string[];
}

/** The media types of report attachments (the same as an upload's body may have). */
export const reportMediaTypes: ReadonlySet<string> = new Set([
  'application/xml',
  'text/xml',
  'application/gzip',
  'application/x-gzip',
  'application/zip',
  'application/x-zip-compressed',
  'application/tlsrpt+json',
  'application/tlsrpt+gzip',
  'application/json',
]);

/** Names a report file has (RFC 7489 §7.2.1.1, RFC 8460 §5.3), whatever type it is labelled. */
const reportFileName = /\.(xml|xml\.gz|zip|json|json\.gz|gz)$/i;

/** RFC 6591 §3.1: a DMARC failure report is an ARF report of this feedback type. */
const authFailure = /^\s*Feedback-Type:\s*auth-failure\b/im;

export async function readMessageWith(message: Uint8Array, reading: Reading): Promise<ReadMessage> {
  let email: Email;
  try {
    email = await PostalMime.parse(message, { attachmentEncoding: 'arraybuffer' });
  } catch (error) {
    throw invalidReport(
      `not a readable message (${error instanceof Error ? error.message : error})`,
    );
  }
  const reports: ParsedReport[] = [];
  for (const attachment of email.attachments) {
    if (isFailureReport(attachment)) {
      throw invalidReport(
        'failure reports (RFC 6591) are not kept: they carry the failed message itself',
      );
    }
    if (!isReportAttachment(attachment)) continue;
    const bytes = new Uint8Array(attachment.content as ArrayBuffer);
    try {
      reports.push(...readReportFile(bytes, reading));
    } catch (error) {
      const name = attachment.filename ?? attachment.mimeType;
      throw error instanceof ReportReadError ? error.within(`attachment "${name}"`) : error;
    }
  }
  if (reports.length === 0) reports.push(...bodyReports(email, reading));
  if (reports.length === 0) {
    throw invalidReport('the message holds no report (no XML, JSON, gzip or zip attachment)');
  }
  return { reports, recipients: recipientsOf(email) };
}

function isReportAttachment(attachment: Attachment): boolean {
  return (
    reportMediaTypes.has(attachment.mimeType) ||
    (attachment.filename !== null && reportFileName.test(attachment.filename))
  );
}

function isFailureReport(attachment: Attachment): boolean {
  if (attachment.mimeType !== 'message/feedback-report') return false;
  const content = new Uint8Array(attachment.content as ArrayBuffer);
  return authFailure.test(new TextDecoder().decode(content));
}

/** A report sent as the message's text itself, rather than attached. */
function bodyReports(email: Email, reading: Reading): ParsedReport[] {
  if (!email.text) return [];
  const bytes = utf8.encode(email.text);
  const kind = sniffContent(bytes);
  return kind === 'xml' || kind === 'json' ? readReportFile(bytes, reading) : [];
}

const recipientHeaders = ['delivered-to', 'x-original-to', 'to', 'cc'];

function recipientsOf(email: Email): string[] {
  const recipients = new Set<string>();
  for (const key of recipientHeaders) {
    for (const header of email.headers) {
      if (header.key !== key) continue;
      for (const address of mailboxes(addressParser(header.value))) recipients.add(address);
    }
  }
  return [...recipients];
}

function mailboxes(addresses: readonly Address[]): string[] {
  return addresses.flatMap((address) =>
    address.group
      ? mailboxes(address.group)
      : address.address
        ? [address.address.trim().toLowerCase()]
        : [],
  );
}
