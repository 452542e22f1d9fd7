import { describe, expect, it } from 'vitest';
import {
  createReportReader,
  defaultReadLimits,
  type ParsedReport,
  readMessage,
  readReports,
} from '../../../src/reports/read/index.js';
import { aggregateXml, defaultMetadata, gzip, message, tlsJson, utf8, zip } from './builders.js';

/**
 * What a body may be (docs/reports.md, "What is read"): the media types an upload is taken
 * under, sniffing by magic bytes, zips of several reports, and messages with their attachments,
 * their body and their recipients.
 */

const limits = defaultReadLimits;
const xml = (id = 'r-1') => utf8(aggregateXml({ metadata: defaultMetadata.replace('r-1', id) }));
const ids = (reports: ParsedReport[]) =>
  reports.map((report) => `${report.kind}:${report.reportId}`);

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'read',
    (error: unknown) => error,
  );
}

describe('media types', () => {
  it.each([
    ['application/xml', xml()],
    ['text/xml', xml()],
    ['Application/XML; charset=UTF-8', xml()],
    ['application/gzip', gzip(xml())],
    ['application/x-gzip', gzip(xml())],
    ['application/zip', zip({ 'r.xml': xml() })],
    ['application/x-zip-compressed', zip({ 'r.xml': xml() })],
    ['application/tlsrpt+json', tlsJson()],
    ['application/json', tlsJson()],
    ['application/tlsrpt+gzip', gzip(tlsJson())],
  ])('reads a report uploaded as %s', async (mediaType, body) => {
    const [report] = await readReports(body, mediaType, limits);
    expect(report!.reportId).toBe(report!.kind === 'dmarc' ? 'r-1' : 'tls-1');
  });

  it.each([
    ['XML', xml(), 'dmarc'],
    ['JSON', tlsJson(), 'tls'],
    ['gzip', gzip(xml()), 'dmarc'],
    ['zip', zip({ 'r.json': tlsJson() }), 'tls'],
  ])('sniffs %s sent as application/octet-stream or with no type', async (_, body, kind) => {
    for (const mediaType of ['application/octet-stream', undefined, '']) {
      const [report] = await readReports(body, mediaType, limits);
      expect(report!.kind).toBe(kind);
    }
  });

  it('sniffs a whole message sent with no type', async () => {
    const body = await message({
      attachments: [{ filename: 'r.xml', contentType: 'text/xml', content: xml() }],
    });
    expect(ids(await readReports(body, undefined, limits))).toEqual(['dmarc:r-1']);
  });

  it('reads what the bytes are, whatever report type they are labelled', async () => {
    expect(ids(await readReports(xml(), 'application/gzip', limits))).toEqual(['dmarc:r-1']);
    expect(ids(await readReports(gzip(tlsJson()), 'application/json', limits))).toEqual([
      'tls:tls-1',
    ]);
  });

  it.each([
    'text/plain',
    'text/html',
    'image/png',
    'application/pdf',
    'multipart/form-data; boundary=x',
  ])('refuses a body of %s as unsupported_media_type', async (mediaType) => {
    expect(await refusal(readReports(xml(), mediaType, limits))).toMatchObject({
      code: 'unsupported_media_type',
      reason: expect.stringMatching(
        new RegExp(`^${mediaType.split(';')[0]} is not a report type: send application/xml`),
      ),
    });
  });

  it.each([
    ['an empty body', new Uint8Array(0), 'the body is empty'],
    ['plain text', utf8('hello'), 'not a report: neither XML, JSON, gzip nor zip'],
    ['a gzip of plain text', gzip(utf8('hello')), 'the gzip data holds neither XML nor JSON'],
    [
      'a zip of no report',
      zip({ 'readme.txt': utf8('hello') }),
      'the zip holds no XML or JSON report',
    ],
  ])('refuses %s as invalid_report', async (_, body, reason) => {
    expect(await refusal(readReports(body, 'application/octet-stream', limits))).toMatchObject({
      code: 'invalid_report',
      reason,
    });
  });
});

describe('zips', () => {
  it('reads every report of a zip and passes over its folders and other files', async () => {
    const body = zip({
      'reports/': new Uint8Array(0),
      'reports/a.xml': xml('a'),
      'reports/b.xml': xml('b'),
      'reports/tls.json': tlsJson(),
      '__MACOSX/reports/._a.xml': new Uint8Array([0, 5, 22, 7, 0, 2, 0, 0]),
      'README.txt': utf8('Reports for example.com'),
    });
    expect(ids(await readReports(body, 'application/zip', limits)).sort()).toEqual([
      'dmarc:a',
      'dmarc:b',
      'tls:tls-1',
    ]);
  });

  it('refuses a zip whose report entry is refused, naming the entry', async () => {
    const body = zip({
      'a.xml': xml('a'),
      'b.xml': utf8('<feedback><version>1.0</version></feedback>'),
    });
    expect(await refusal(readReports(body, 'application/zip', limits))).toMatchObject({
      code: 'invalid_report',
      reason: 'zip entry "b.xml": report_metadata is missing: not a DMARC aggregate report',
    });
  });
});

describe('messages', () => {
  it('reads every report attachment of one message, by type or by file name', async () => {
    const body = await message({
      attachments: [
        {
          filename: 'receiver!example.com!1!2.xml.gz',
          contentType: 'application/gzip',
          content: gzip(xml('a')),
        },
        {
          filename: 'receiver!example.com!1!2!b.xml.gz',
          contentType: 'application/octet-stream',
          content: gzip(xml('b')),
        },
        {
          filename: 'c.zip',
          contentType: 'application/octet-stream',
          content: zip({ 'c.xml': xml('c') }),
        },
        {
          filename: 'receiver!example.com!1!2.json',
          contentType: 'application/octet-stream',
          content: tlsJson(),
        },
        {
          filename: 'tls.json.gz',
          contentType: 'application/tlsrpt+gzip',
          content: gzip(tlsJson({ 'report-id': 'tls-2' })),
        },
        { filename: 'e.xml', contentType: 'text/xml', content: xml('e') },
        {
          filename: 'logo.png',
          contentType: 'image/png',
          content: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
        },
        { filename: 'notes.txt', contentType: 'text/plain', content: utf8('<not a report>') },
      ],
    });
    expect(ids(await readReports(body, 'message/rfc822', limits))).toEqual([
      'dmarc:a',
      'dmarc:b',
      'dmarc:c',
      'tls:tls-1',
      'tls:tls-2',
      'dmarc:e',
    ]);
  });

  it('reads a report sent as the message text itself', async () => {
    const body = await message({ text: aggregateXml() });
    expect(ids((await readMessage(body, limits)).reports)).toEqual(['dmarc:r-1']);
  });

  it('refuses a message with no report, saying so', async () => {
    const body = await message({
      text: 'Hello, here is nothing.',
      attachments: [
        { filename: 'notes.pdf', contentType: 'application/pdf', content: utf8('%PDF-1.4') },
      ],
    });
    expect(await refusal(readMessage(body, limits))).toMatchObject({
      code: 'invalid_report',
      reason: 'the message holds no report (no XML, JSON, gzip or zip attachment)',
    });
  });

  it('refuses a message whose report attachment is refused, naming the attachment', async () => {
    const body = await message({
      attachments: [
        { filename: 'good.xml', contentType: 'text/xml', content: xml() },
        {
          filename: 'bad.xml.gz',
          contentType: 'application/gzip',
          content: gzip(utf8('<feedback/>')),
        },
      ],
    });
    expect(await refusal(readMessage(body, limits))).toMatchObject({
      code: 'invalid_report',
      reason: 'attachment "bad.xml.gz": report_metadata is missing: not a DMARC aggregate report',
    });
  });

  it('refuses a message larger than maxBytes before parsing it', async () => {
    const body = await message({
      attachments: [{ filename: 'r.xml', contentType: 'text/xml', content: xml() }],
    });
    expect(await refusal(readMessage(body, { maxBytes: 1024, maxRecords: 10 }))).toMatchObject({
      code: 'report_too_large',
    });
  });

  it('refuses an RFC 6591 failure report: failure reports are not kept', async () => {
    const body = utf8(
      [
        'From: dmarc@receiver.example',
        'To: ruf@reports.example',
        'Subject: DMARC failure report',
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=feedback-report; boundary="b"',
        '',
        '--b',
        'Content-Type: text/plain',
        '',
        'A message failed DMARC.',
        '--b',
        'Content-Type: message/feedback-report',
        '',
        'Feedback-Type: auth-failure',
        'User-Agent: Receiver/1.0',
        'Version: 1',
        'Auth-Failure: dmarc',
        '',
        '--b',
        'Content-Type: text/rfc822-headers',
        '',
        'From: someone@example.com',
        '--b--',
        '',
      ].join('\r\n'),
    );
    expect(await refusal(readMessage(body, limits))).toMatchObject({
      code: 'invalid_report',
      reason: 'failure reports (RFC 6591) are not kept: they carry the failed message itself',
    });
  });

  it('gives the recipients of Delivered-To, X-Original-To, To and Cc in that order, lower case, once each', async () => {
    const body = await message({
      headers: {
        'Delivered-To': 'Mailbox@Reports.Example',
        'X-Original-To': 'dmarc+AbC@reports.example',
      },
      to: 'Reports <DMARC+abc@REPORTS.example>, mailbox@reports.example',
      cc: 'Team: one@example.org, Two@Example.org;',
      attachments: [{ filename: 'r.xml', contentType: 'text/xml', content: xml() }],
    });
    expect((await readMessage(body, limits)).recipients).toEqual([
      'mailbox@reports.example',
      'dmarc+abc@reports.example',
      'one@example.org',
      'two@example.org',
    ]);
  });
});

describe('a reader bound to its limits', () => {
  it('reads with its limits and gives a refusal as a code and a reason', async () => {
    const reader = createReportReader({ maxBytes: 64 * 1024, maxRecords: 5 });
    expect(ids(await reader.readReports(xml(), 'text/xml'))).toEqual(['dmarc:r-1']);
    const body = await message({
      attachments: [{ filename: 'r.xml', contentType: 'text/xml', content: xml() }],
    });
    expect(ids(await reader.readMessage(body))).toEqual(['dmarc:r-1']);
    const error = await refusal(reader.readReports(new Uint8Array(64 * 1024 + 1), 'text/xml'));
    expect(reader.refusalOf(error)).toEqual({
      code: 'report_too_large',
      reason: 'the body is 65537 bytes, more than 65536 bytes',
    });
    expect(reader.refusalOf(new Error('disk full'))).toBeUndefined();
  });
});
