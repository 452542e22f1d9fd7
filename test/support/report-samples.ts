import type { DmarcTotals, ReportStore } from '../../src/reports/index.js';

/**
 * parsedmarc's samples (test/fixtures/reports/parsedmarc/NOTICE.md) as the mail doors get them:
 * each sample a receiver would send, the inbox domain it is about, and the sums each inbox must
 * show once they have all come in, counted by hand from the per-sample hand counts of
 * test/reports/read/samples.test.ts (added up per domain, not computed). The SMTP, IMAP and
 * workerd suites send the same samples through their door and compare the same sums; how each
 * loads the bytes is its own (a file read on Node, a bundled module in workerd). RFC 8460's
 * example is left out: it is about `company-y.example`, a name no inbox can be made for (the
 * `.example` names are not public, RFC 2606).
 */

export interface DoorSample {
  /** Under test/fixtures/reports/parsedmarc/. */
  file: string;
  /** What a receiver labels the attachment; `message/rfc822` for a whole message, sent as it is. */
  mediaType: string;
  /** The domain its report is about: the inbox it is sent to. */
  domain: string;
}

// prettier-ignore
export const doorSamples: DoorSample[] = [
  { file: 'aggregate/Report domain- borschow.com Submitter- google.com Report-ID- 949348866075514174.eml', mediaType: 'message/rfc822', domain: 'borschow.com' },
  { file: 'aggregate/twilight.eml', mediaType: 'message/rfc822', domain: 'twlnet.com' },
  { file: 'aggregate/mimecast-weird-gzip.eml', mediaType: 'message/rfc822', domain: 'ab.id.au' },
  { file: 'aggregate/fastmail.com!example.com!1516060800!1516147199!102675056.xml.gz', mediaType: 'application/gzip', domain: 'indemed.com' },
  { file: 'aggregate/ikea.com!example.de!1538690400!1538776800.xml', mediaType: 'text/xml', domain: 'example.de' },
  { file: 'aggregate/protection.outlook.com!example.com!1711756800!1711843200.xml', mediaType: 'application/xml', domain: 'example.com' },
  { file: 'aggregate/zoho.com!example.com!1581753600!1581840000.xml', mediaType: 'text/xml', domain: 'example.com' },
  { file: 'aggregate/rfc9990-example.net!example.com!1700000000!1700086399.xml', mediaType: 'application/xml', domain: 'example.com' },
  { file: 'aggregate/rfc9990-sample.xml', mediaType: 'application/xml', domain: 'example.com' },
  { file: 'aggregate/report_with_upper_cased_pass.xml', mediaType: 'application/xml', domain: 'example.com' },
  { file: 'aggregate/invalid_utf_8.xml', mediaType: 'application/xml', domain: 'example.com' },
  { file: 'aggregate/empty_reason.xml', mediaType: 'application/xml', domain: 'example.com' },
  { file: 'aggregate/estadocuenta1.infonacot.gob.mx!example.com!1536853302!1536939702!2940.xml.zip', mediaType: 'application/zip', domain: 'example.com' },
  { file: 'aggregate/usssa.com!example.com!1538784000!1538870399.xml', mediaType: 'application/xml', domain: 'example.com' },
  { file: 'aggregate/addisonfoods.com!example.com!1536105600!1536191999.xml', mediaType: 'application/xml', domain: 'example.com' },
  { file: 'aggregate/old_draft_from_wiki.xml', mediaType: 'application/xml', domain: 'example.com' },
  { file: 'smtp_tls/google.com_smtp_tls_report.eml', mediaType: 'message/rfc822', domain: 'cardinalhealth.ca' },
  { file: 'smtp_tls/mail.ru.json', mediaType: 'application/tlsrpt+json', domain: 'example.com' },
  { file: 'smtp_tls/smtp_tls.json', mediaType: 'application/tlsrpt+json', domain: 'example.com' },
];

/** An inbox's sums as every door's suite compares them: the DMARC totals but the lists, TLS sessions. */
export interface InboxCount {
  domain: string;
  dmarc: Pick<
    DmarcTotals,
    'reports' | 'messages' | 'pass' | 'fail' | 'spfAligned' | 'dkimAligned' | 'dispositions'
  >;
  tls: { reports: number; success: number; failure: number };
}

// prettier-ignore
const noDmarc = { reports: 0, messages: 0, pass: 0, fail: 0, spfAligned: 0, dkimAligned: 0, dispositions: { none: 0, quarantine: 0, reject: 0 } };
const noTls = { reports: 0, success: 0, failure: 0 };

/**
 * example.com's eleven aggregate reports: messages 1 + 9 + 7 + 123 + 1 + 1 + 2 + 1 + 2 + 1 + 2 =
 * 150 (Outlook, Zoho, RFC 9990's two, upper case, invalid UTF-8, empty reason, the zip, usssa,
 * addisonfoods, the old draft); pass 5 + 123 + 1 + 2 + 2 = 133; DKIM aligned 5 + 123 + 1 + 2 =
 * 131; SPF aligned 5 + 1 + 2 = 8; rejected 2 (RFC 9990's example), the other 148 none. Its two TLS
 * reports (Mail.ru, parsedmarc's smtp_tls.json): 0 successful sessions, 1 + 3 failed.
 */
// prettier-ignore
export const inboxCounts: InboxCount[] = [
  { domain: 'borschow.com', tls: noTls, dmarc: { reports: 1, messages: 1, pass: 0, fail: 1, spfAligned: 0, dkimAligned: 0, dispositions: { none: 0, quarantine: 0, reject: 1 } } },
  { domain: 'twlnet.com', tls: noTls, dmarc: { reports: 1, messages: 1, pass: 1, fail: 0, spfAligned: 1, dkimAligned: 1, dispositions: { none: 1, quarantine: 0, reject: 0 } } },
  { domain: 'ab.id.au', tls: noTls, dmarc: { reports: 1, messages: 1, pass: 1, fail: 0, spfAligned: 1, dkimAligned: 1, dispositions: { none: 1, quarantine: 0, reject: 0 } } },
  { domain: 'indemed.com', tls: noTls, dmarc: { reports: 1, messages: 1, pass: 0, fail: 1, spfAligned: 0, dkimAligned: 0, dispositions: { none: 1, quarantine: 0, reject: 0 } } },
  { domain: 'example.de', tls: noTls, dmarc: { reports: 1, messages: 1, pass: 0, fail: 1, spfAligned: 0, dkimAligned: 0, dispositions: { none: 1, quarantine: 0, reject: 0 } } },
  { domain: 'example.com', tls: { reports: 2, success: 0, failure: 4 }, dmarc: { reports: 11, messages: 150, pass: 133, fail: 17, spfAligned: 8, dkimAligned: 131, dispositions: { none: 148, quarantine: 0, reject: 2 } } },
  { domain: 'cardinalhealth.ca', dmarc: noDmarc, tls: { reports: 1, success: 48, failure: 0 } },
];

/** Samples every door refuses, with the refusal's code: nothing of them may be kept. */
// prettier-ignore
export const refusedSamples: (DoorSample & { code: 'invalid_report' })[] = [
  { file: 'aggregate/invalid_xml.xml', mediaType: 'application/xml', domain: 'example.com', code: 'invalid_report' },
  { file: 'failure/dmarc_ruf_report_linkedin.eml', mediaType: 'message/rfc822', domain: 'example.com', code: 'invalid_report' },
];

/** A period holding every sample's report: RFC 9990's sample is dated 1979, the others 2016 on. */
export const samplesPeriod = { from: '1970-01-01', to: '2099-12-31' };

/** What an inbox's store says, in InboxCount's terms. */
export async function countOf(
  store: Pick<ReportStore, 'dmarcTotals' | 'tlsTotals'>,
  inbox: { id: string; domain: string },
): Promise<InboxCount> {
  const [dmarc, tls] = await Promise.all([
    store.dmarcTotals(inbox.id, samplesPeriod),
    store.tlsTotals(inbox.id, samplesPeriod),
  ]);
  return inboxCount(inbox.domain, dmarc, tls);
}

/** The sums InboxCount compares, of a store's totals or a summary's. */
export function inboxCount(
  domain: string,
  dmarc: InboxCount['dmarc'],
  tls: { reports: number; sessions: { success: number; failure: number } },
): InboxCount {
  const { reports, messages, pass, fail, spfAligned, dkimAligned, dispositions } = dmarc;
  return {
    domain,
    dmarc: { reports, messages, pass, fail, spfAligned, dkimAligned, dispositions },
    tls: { reports: tls.reports, ...tls.sessions },
  };
}
/** The final path part of a sample: the attachment's file name. */
function fileName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}

function base64Lines(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return (btoa(binary).match(/.{1,76}/g) ?? []).join('\r\n');
}

/**
 * A report file as a receiver mails it (RFC 7489 §7.2.1.1, RFC 8460 §5.3): a message to `to`
 * with the report as its base64 attachment; a sample that is a message already is sent as it is.
 * Plain MIME written here (RFC 2045, 2046), so the same bytes go through every door and runtime.
 */
export function sampleMessage(sample: DoorSample, bytes: Uint8Array, to: string): Uint8Array {
  if (sample.mediaType === 'message/rfc822') return bytes;
  const boundary = 'report-sample-boundary';
  const text = [
    'From: reports@receiver.example',
    `To: ${to}`,
    `Subject: Report Domain: ${sample.domain} Submitter: receiver.example`,
    'Date: Mon, 1 Jan 2024 00:00:00 +0000',
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    `A report for ${sample.domain}.`,
    `--${boundary}`,
    `Content-Type: ${sample.mediaType}; name="${fileName(sample.file)}"`,
    'Content-Transfer-Encoding: base64',
    `Content-Disposition: attachment; filename="${fileName(sample.file)}"`,
    '',
    base64Lines(bytes),
    `--${boundary}--`,
    '',
  ].join('\r\n');
  return new TextEncoder().encode(text);
}
