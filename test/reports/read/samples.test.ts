import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  defaultReadLimits,
  type DmarcAggregateReport,
  type ParsedReport,
  readMessage,
  readReports,
  type TlsReport,
} from '../../../src/reports/read/index.js';

/**
 * parsedmarc's published samples (test/fixtures/reports/parsedmarc/NOTICE.md): reports from real
 * receivers read right. Every expected number below was counted by hand from the sample's XML or
 * JSON (the zipped and gzipped ones unpacked with unzip, gunzip and Python's email module), not
 * computed by code: records, messages (the sum of row/count), DMARC pass and fail, the messages
 * each identifier aligned, per disposition; TLS sessions.
 */

const samples = new URL('../../fixtures/reports/parsedmarc/', import.meta.url);
const sample = (path: string) => new Uint8Array(readFileSync(new URL(path, samples)));
const readSample = (path: string, mediaType: string) =>
  readReports(sample(path), mediaType, defaultReadLimits);

interface AggregateCount {
  file: string;
  mediaType: string;
  org: string;
  reportId: string;
  domain: string;
  records: number;
  messages: number;
  pass: number;
  fail: number;
  dkimAligned: number;
  spfAligned: number;
  none: number;
  quarantine: number;
  reject: number;
}

// prettier-ignore
const aggregateCounts: AggregateCount[] = [
  { file: 'aggregate/Report domain- borschow.com Submitter- google.com Report-ID- 949348866075514174.eml', mediaType: 'message/rfc822',
    org: 'google.com', reportId: '949348866075514174', domain: 'borschow.com',
    records: 1, messages: 1, pass: 0, fail: 1, dkimAligned: 0, spfAligned: 0, none: 0, quarantine: 0, reject: 1 },
  { file: 'aggregate/twilight.eml', mediaType: 'message/rfc822',
    org: 'google.com', reportId: '1627703331531660819', domain: 'twlnet.com',
    records: 1, messages: 1, pass: 1, fail: 0, dkimAligned: 1, spfAligned: 1, none: 1, quarantine: 0, reject: 0 },
  { file: 'aggregate/protection.outlook.com!example.com!1711756800!1711843200.xml', mediaType: 'application/xml',
    org: 'Outlook.com', reportId: 'cfeafefe4129445e8c81018bd9177197', domain: 'example.com',
    records: 1, messages: 1, pass: 0, fail: 1, dkimAligned: 0, spfAligned: 0, none: 1, quarantine: 0, reject: 0 },
  { file: 'aggregate/fastmail.com!example.com!1516060800!1516147199!102675056.xml.gz', mediaType: 'application/gzip',
    org: 'FastMail Pty Ltd', reportId: '102675056', domain: 'indemed.com',
    records: 1, messages: 1, pass: 0, fail: 1, dkimAligned: 0, spfAligned: 0, none: 1, quarantine: 0, reject: 0 },
  { file: 'aggregate/zoho.com!example.com!1581753600!1581840000.xml', mediaType: 'text/xml',
    org: 'zoho.com', reportId: 'e2cb5d97-dcbb-470f-b2dd-45519a2abbb3', domain: 'example.com',
    records: 8, messages: 9, pass: 0, fail: 9, dkimAligned: 0, spfAligned: 0, none: 9, quarantine: 0, reject: 0 },
  { file: 'aggregate/mimecast-weird-gzip.eml', mediaType: 'message/rfc822',
    org: 'Mimecast', reportId: '157a5fe30ec76f4bc0d8bccfc96c118a167a1280fee7c7465af5115e73082e5e', domain: 'ab.id.au',
    records: 1, messages: 1, pass: 1, fail: 0, dkimAligned: 1, spfAligned: 1, none: 1, quarantine: 0, reject: 0 },
  { file: 'aggregate/rfc9990-example.net!example.com!1700000000!1700086399.xml', mediaType: 'application/xml',
    org: 'example.net', reportId: 'dmarcbis-test-report-001', domain: 'example.com',
    records: 2, messages: 7, pass: 5, fail: 2, dkimAligned: 5, spfAligned: 5, none: 5, quarantine: 0, reject: 2 },
  { file: 'aggregate/rfc9990-sample.xml', mediaType: 'application/xml',
    org: 'Sample Reporter', reportId: '3v98abbp8ya9n3va8yr8oa3ya', domain: 'example.com',
    records: 1, messages: 123, pass: 123, fail: 0, dkimAligned: 123, spfAligned: 0, none: 123, quarantine: 0, reject: 0 },
  { file: 'aggregate/report_with_upper_cased_pass.xml', mediaType: 'application/xml',
    org: 'example.com', reportId: 'aggr_report_example.com_20191202_1638', domain: 'example.com',
    records: 1, messages: 1, pass: 1, fail: 0, dkimAligned: 1, spfAligned: 1, none: 1, quarantine: 0, reject: 0 },
  { file: 'aggregate/invalid_utf_8.xml', mediaType: 'application/xml',
    org: 'accurateplastics.com', reportId: 'example.com:1538463741', domain: 'example.com',
    records: 1, messages: 1, pass: 0, fail: 1, dkimAligned: 0, spfAligned: 0, none: 1, quarantine: 0, reject: 0 },
  { file: 'aggregate/empty_reason.xml', mediaType: 'application/xml',
    org: 'example.org', reportId: '20240125141224705995', domain: 'example.com',
    records: 1, messages: 2, pass: 2, fail: 0, dkimAligned: 2, spfAligned: 0, none: 2, quarantine: 0, reject: 0 },
  { file: 'aggregate/ikea.com!example.de!1538690400!1538776800.xml', mediaType: 'application/xml',
    org: 'ikea.com', reportId: 'aggr_report_2018_10_05_5bc7e9b4f3e8a', domain: 'example.de',
    records: 1, messages: 1, pass: 0, fail: 1, dkimAligned: 0, spfAligned: 0, none: 1, quarantine: 0, reject: 0 },
  { file: 'aggregate/estadocuenta1.infonacot.gob.mx!example.com!1536853302!1536939702!2940.xml.zip', mediaType: 'application/zip',
    org: 'XYZ Corporation', reportId: '2940', domain: 'example.com',
    records: 1, messages: 1, pass: 0, fail: 1, dkimAligned: 0, spfAligned: 0, none: 1, quarantine: 0, reject: 0 },
  { file: 'aggregate/usssa.com!example.com!1538784000!1538870399.xml', mediaType: 'application/xml',
    org: 'usssa.com', reportId: '8953b4d4a4ee4218b6ac0e2cb2667ee1', domain: 'example.com',
    records: 2, messages: 2, pass: 0, fail: 2, dkimAligned: 0, spfAligned: 0, none: 2, quarantine: 0, reject: 0 },
  { file: 'aggregate/addisonfoods.com!example.com!1536105600!1536191999.xml', mediaType: 'application/xml',
    org: 'addisonfoods.com', reportId: '3ceb5548498640beaeb47327e202b0b9', domain: 'example.com',
    records: 1, messages: 1, pass: 0, fail: 1, dkimAligned: 0, spfAligned: 0, none: 1, quarantine: 0, reject: 0 },
  { file: 'aggregate/old_draft_from_wiki.xml', mediaType: 'application/xml',
    org: 'acme.com', reportId: '9391651994964116463', domain: 'example.com',
    records: 1, messages: 2, pass: 2, fail: 0, dkimAligned: 0, spfAligned: 2, none: 2, quarantine: 0, reject: 0 },
];

/** The sums of one report's rows, in the table's terms. */
function sums(report: DmarcAggregateReport) {
  const total = (keep: (row: DmarcAggregateReport['rows'][number]) => boolean) =>
    report.rows.filter(keep).reduce((sum, row) => sum + row.messages, 0);
  return {
    records: report.rows.length,
    messages: total(() => true),
    pass: total((row) => row.dkimAligned || row.spfAligned),
    fail: total((row) => !row.dkimAligned && !row.spfAligned),
    dkimAligned: total((row) => row.dkimAligned),
    spfAligned: total((row) => row.spfAligned),
    none: total((row) => row.disposition === 'none'),
    quarantine: total((row) => row.disposition === 'quarantine'),
    reject: total((row) => row.disposition === 'reject'),
  };
}

function only<T extends ParsedReport['kind']>(
  reports: ParsedReport[],
  kind: T,
): Extract<ParsedReport, { kind: T }> {
  expect(reports).toHaveLength(1);
  expect(reports[0]!.kind).toBe(kind);
  return reports[0] as Extract<ParsedReport, { kind: T }>;
}

describe("parsedmarc's aggregate samples", () => {
  it.each(aggregateCounts)(
    '$file gives the hand count',
    async ({ file, mediaType, org, reportId, domain, ...counted }) => {
      const report = only(await readSample(file, mediaType), 'dmarc');
      expect({ org: report.org, reportId: report.reportId, domain: report.policy.domain }).toEqual({
        org,
        reportId,
        domain,
      });
      expect(sums(report)).toEqual(counted);
    },
  );

  it('reads every value of a Microsoft report as written', async () => {
    const file = 'aggregate/protection.outlook.com!example.com!1711756800!1711843200.xml';
    const report = only(await readSample(file, 'application/xml'), 'dmarc');
    expect(report).toEqual({
      kind: 'dmarc',
      org: 'Outlook.com',
      email: 'dmarcreport@microsoft.com',
      reportId: 'cfeafefe4129445e8c81018bd9177197',
      begin: 1711756800,
      end: 1711843200,
      policy: {
        domain: 'example.com',
        p: 'none',
        sp: 'none',
        np: null,
        pct: 100,
        adkim: 'r',
        aspf: 'r',
        testing: null,
      },
      rows: [
        {
          ip: '100.24.188.149',
          messages: 1,
          disposition: 'none',
          dkimAligned: false,
          spfAligned: false,
          reasons: [],
          headerFrom: 'example.com',
          envelopeFrom: 'example.com',
          envelopeTo: 'hotmail.com',
          dkim: [],
          spf: [{ domain: 'example.com', scope: 'mfrom', result: 'fail' }],
        },
      ],
    });
  });

  it("reads RFC 9990's policy elements and a record's override reason", async () => {
    const file = 'aggregate/rfc9990-example.net!example.com!1700000000!1700086399.xml';
    const report = only(await readSample(file, 'application/xml'), 'dmarc');
    expect(report.policy).toEqual({
      domain: 'example.com',
      p: 'reject',
      sp: 'quarantine',
      np: 'reject',
      pct: null,
      adkim: 's',
      aspf: 's',
      testing: true,
    });
    expect(report.rows.map((row) => [row.ip, row.messages, row.disposition, row.reasons])).toEqual([
      ['198.51.100.1', 5, 'none', []],
      ['203.0.113.10', 2, 'reject', [{ type: 'other', comment: 'sender not authorized' }]],
    ]);
  });

  it("keeps Zoho's SPF results that name a domain and leaves out the two that name none", async () => {
    const file = 'aggregate/zoho.com!example.com!1581753600!1581840000.xml';
    const report = only(await readSample(file, 'text/xml'), 'dmarc');
    expect(report.rows.map((row) => row.spf.length)).toEqual([1, 0, 1, 1, 1, 0, 1, 1]);
    expect(report.rows.map((row) => row.dkim.length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(report.rows[0]!.dkim[0]).toEqual({
      domain: 'example.com',
      selector: 's1',
      result: 'pass',
    });
  });

  it('reads the bytes that are not UTF-8 as U+FFFD and the empty org_name as the email domain', async () => {
    const report = only(
      await readSample('aggregate/invalid_utf_8.xml', 'application/xml'),
      'dmarc',
    );
    expect(report.rows[0]!.headerFrom).toBe('bad_byte\ufffd');
    expect(report.org).toBe('accurateplastics.com');
  });

  it('refuses the sample that is not well-formed XML, saying so', async () => {
    await expect(readSample('aggregate/invalid_xml.xml', 'application/xml')).rejects.toMatchObject({
      code: 'invalid_report',
      reason: expect.stringMatching(/^not well-formed XML \(.*line 5\)$/),
    });
  });
});

interface TlsCount {
  file: string;
  mediaType: string;
  org: string;
  reportId: string;
  begin: number;
  end: number;
  policies: [type: string, domain: string, success: number, failure: number, details: number][];
  failedSessionsInDetails: number;
}

// prettier-ignore
const tlsCounts: TlsCount[] = [
  { file: 'smtp_tls/rfc8460.json', mediaType: 'application/tlsrpt+json', org: 'Company-X',
    reportId: '5065427c-23d3-47ca-b6e0-946ea0e8c4be', begin: 1459468800, end: 1459555199,
    policies: [['sts', 'company-y.example', 5326, 303, 3]], failedSessionsInDetails: 303 },
  { file: 'smtp_tls/mail.ru.json', mediaType: 'application/json', org: 'Mail.ru',
    reportId: 'b28254de-7b2e-be36-bb5c-4c3b92da8b25@mail.ru', begin: 1708560000, end: 1708646400,
    policies: [['sts', 'example.com', 0, 1, 2]], failedSessionsInDetails: 2 },
  { file: 'smtp_tls/smtp_tls.json', mediaType: 'application/json', org: 'Example Inc.',
    reportId: '2024-01-09T00:00:00Z_example.com', begin: 1704758400, end: 1704844799,
    policies: [['sts', 'example.com', 0, 3, 2]], failedSessionsInDetails: 3 },
  { file: 'smtp_tls/google.com_smtp_tls_report.eml', mediaType: 'message/rfc822', org: 'Google Inc.',
    reportId: '2024-09-03T00:00:00Z_cardinalhealth.ca', begin: 1725321600, end: 1725407999,
    policies: [['no-policy-found', 'cardinalhealth.ca', 48, 0, 0]], failedSessionsInDetails: 0 },
];

describe("parsedmarc's TLS samples", () => {
  it.each(tlsCounts)('$file gives the hand count', async ({ file, mediaType, ...counted }) => {
    const report: TlsReport = only(await readSample(file, mediaType), 'tls');
    expect({
      org: report.org,
      reportId: report.reportId,
      begin: report.begin,
      end: report.end,
      policies: report.policies.map((p) => [
        p.type,
        p.domain,
        p.success,
        p.failure,
        p.failures.length,
      ]),
      failedSessionsInDetails: report.policies
        .flatMap((policy) => policy.failures)
        .reduce((sum, failure) => sum + failure.count, 0),
    }).toEqual(counted);
  });

  it("reads RFC 8460's example failure details, IPv6 senders in canonical text", async () => {
    const report = only(
      await readSample('smtp_tls/rfc8460.json', 'application/tlsrpt+json'),
      'tls',
    );
    expect(report.contact).toBe('sts-reporting@company-x.example');
    expect(report.policies[0]!.mxHosts).toEqual(['*.mail.company-y.example']);
    expect(report.policies[0]!.failures).toEqual([
      {
        resultType: 'certificate-expired',
        sendingMtaIp: '2001:db8:abcd:12::1',
        receivingMxHostname: 'mx1.mail.company-y.example',
        receivingIp: null,
        count: 100,
      },
      {
        resultType: 'starttls-not-supported',
        sendingMtaIp: '2001:db8:abcd:13::1',
        receivingMxHostname: 'mx2.mail.company-y.example',
        receivingIp: '203.0.113.56',
        count: 200,
      },
      {
        resultType: 'validation-failure',
        sendingMtaIp: '198.51.100.62',
        receivingMxHostname: 'mx-backup.mail.company-y.example',
        receivingIp: '203.0.113.58',
        count: 3,
      },
    ]);
  });
});

describe("parsedmarc's messages", () => {
  it.each([
    [
      'aggregate/Report domain- borschow.com Submitter- google.com Report-ID- 949348866075514174.eml',
      ['dmarcreports@cardinalhealth.com'],
    ],
    ['aggregate/twilight.eml', ['dmarc.reports@twlnet.com']],
    ['aggregate/mimecast-weird-gzip.eml', ['dmarc_rua@ab.id.au']],
    ['smtp_tls/google.com_smtp_tls_report.eml', ['dmarcreports@cardinalhealth.com']],
  ])('%s names its recipients', async (file, recipients) => {
    const read = await readMessage(sample(file), defaultReadLimits);
    expect(read.recipients).toEqual(recipients);
    expect(read.reports).toHaveLength(1);
  });

  it.each([
    'failure/dmarc_ruf_report_linkedin.eml',
    'failure/DMARC Failure Report for domain.de (mail-from=sharepoint@domain.de, ip=10.10.10.10).eml',
  ])('refuses the failure report %s: failure reports are not kept', async (file) => {
    await expect(readMessage(sample(file), defaultReadLimits)).rejects.toMatchObject({
      code: 'invalid_report',
      reason: expect.stringContaining('failure reports (RFC 6591) are not kept'),
    });
  });
});
