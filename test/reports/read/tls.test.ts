import { describe, expect, it } from 'vitest';
import { defaultReadLimits, readReports, type TlsReport } from '../../../src/reports/read/index.js';
import { tlsJson, tlsReport, utf8 } from './builders.js';

/** SMTP TLS reports (RFC 8460 §4): the rules of docs/reports.md, "What is read", as tables. */

async function read(body: Uint8Array): Promise<TlsReport> {
  const [report, ...rest] = await readReports(body, 'application/tlsrpt+json', defaultReadLimits);
  expect(rest).toEqual([]);
  if (report?.kind !== 'tls') throw new Error('not a TLS report');
  return report;
}

async function refusal(body: Uint8Array): Promise<unknown> {
  return readReports(body, 'application/tlsrpt+json', defaultReadLimits).then(
    () => 'read',
    (error: unknown) => error,
  );
}

const policy = (domain: string, success: number, failure: number, details: unknown[] = []) => ({
  policy: { 'policy-type': 'tlsa', 'policy-domain': domain },
  summary: { 'total-successful-session-count': success, 'total-failure-session-count': failure },
  'failure-details': details,
});

describe('TLS reports', () => {
  it('reads every field of a report', async () => {
    expect(await read(tlsJson())).toEqual({
      kind: 'tls',
      org: 'Receiver Inc.',
      contact: 'tls-reports@receiver.example',
      reportId: 'tls-1',
      begin: 1704758400,
      end: 1704844799,
      policies: [
        {
          type: 'sts',
          domain: 'example.com',
          mxHosts: ['mx.example.com'],
          success: 10,
          failure: 2,
          failures: [
            {
              resultType: 'certificate-expired',
              sendingMtaIp: '198.51.100.7',
              receivingMxHostname: 'mx.example.com',
              receivingIp: '203.0.113.9',
              count: 2,
            },
          ],
        },
      ],
    });
  });

  it("reads every policy's summary and failure details", async () => {
    const report = await read(
      tlsJson({
        policies: [
          policy('example.com', 100, 0),
          policy('Mail.Example.ORG.', 7, 5, [
            {
              'result-type': 'STARTTLS-Not-Supported',
              'failed-session-count': 4,
              'receiving-mx-hostname': 'MX1.Example.ORG.',
            },
            {
              'result-type': 'validation-failure',
              'failed-session-count': 1,
              'sending-mta-ip': '2001:DB8::0:7',
            },
          ]),
        ],
      }),
    );
    expect(report.policies.map((p) => [p.type, p.domain, p.success, p.failure])).toEqual([
      ['tlsa', 'example.com', 100, 0],
      ['tlsa', 'mail.example.org', 7, 5],
    ]);
    expect(report.policies[1]!.failures).toEqual([
      {
        resultType: 'starttls-not-supported',
        sendingMtaIp: null,
        receivingMxHostname: 'mx1.example.org',
        receivingIp: null,
        count: 4,
      },
      {
        resultType: 'validation-failure',
        sendingMtaIp: '2001:db8::7',
        receivingMxHostname: null,
        receivingIp: null,
        count: 1,
      },
    ]);
  });

  it.each([
    ['2024-01-09T00:00:00Z', 1704758400],
    ['2024-01-09T02:00:00+02:00', 1704758400],
    ['2024-01-09T00:00:00.999Z', 1704758400],
    ['2024-01-09t00:00:00z', 1704758400],
  ])('reads the RFC 3339 date-time %s', async (start, begin) => {
    const report = await read(
      tlsJson({
        'date-range': { 'start-datetime': start, 'end-datetime': '2024-01-09T23:59:59Z' },
      }),
    );
    expect(report.begin).toBe(begin);
  });

  it.each(['2024-01-09', '2024-01-09T00:00:00', 'yesterday', '1704758400'])(
    'refuses the start-datetime %j',
    async (start) => {
      expect(
        await refusal(
          tlsJson({
            'date-range': { 'start-datetime': start, 'end-datetime': '2024-01-09T23:59:59Z' },
          }),
        ),
      ).toMatchObject({
        code: 'invalid_report',
        reason: `date-range/start-datetime ${JSON.stringify(start)} is not an RFC 3339 date-time`,
      });
    },
  );

  it('takes a mx-host written as one string, and mx-host-pattern', async () => {
    const report = await read(
      tlsJson({
        policies: [
          {
            ...policy('example.com', 1, 0),
            policy: {
              'policy-type': 'sts',
              'policy-domain': 'example.com',
              'mx-host': '*.Mail.example.com',
              'mx-host-pattern': ['mx2.example.com'],
            },
          },
        ],
      }),
    );
    expect(report.policies[0]!.mxHosts).toEqual(['*.mail.example.com', 'mx2.example.com']);
  });

  it.each<[string, Record<string, unknown> | Uint8Array, string]>([
    [
      'JSON that is not a report',
      utf8('{"hello": "world"}'),
      'organization-name is missing: not a TLS report',
    ],
    ['a JSON list', utf8('[1, 2]'), 'not a TLS report: the JSON is not an object'],
    [
      'broken JSON',
      utf8('{"organization-name": '),
      expect.stringMatching(/^not JSON \(/) as unknown as string,
    ],
    ['no report-id', { 'report-id': undefined }, 'report-id is missing'],
    ['no policies', { policies: undefined }, 'policies is missing'],
    [
      'no policy domain',
      { policies: [{ policy: { 'policy-type': 'sts' }, summary: {} }] },
      'policies[0]/policy/policy-domain is missing',
    ],
    [
      'no summary',
      { policies: [{ policy: { 'policy-type': 'sts', 'policy-domain': 'example.com' } }] },
      'policies[0]/summary/total-successful-session-count is missing',
    ],
    [
      'a negative count',
      { policies: [policy('example.com', -1, 0)] },
      'policies[0]/summary/total-successful-session-count is not a whole number of sessions',
    ],
    [
      'a fractional count',
      { policies: [policy('example.com', 1, 0.5)] },
      'policies[0]/summary/total-failure-session-count is not a whole number of sessions',
    ],
    [
      'a failure without its count',
      { policies: [policy('example.com', 1, 1, [{ 'result-type': 'certificate-expired' }])] },
      'policies[0]/failure-details[0]/failed-session-count is not a whole number of sessions',
    ],
    [
      'a sending MTA that is no address',
      {
        policies: [
          policy('example.com', 1, 1, [
            { 'result-type': 'x', 'failed-session-count': 1, 'sending-mta-ip': 'mta.example' },
          ]),
        ],
      },
      'policies[0]/failure-details[0]/sending-mta-ip "mta.example" is not an IP address',
    ],
  ])('refuses %s', async (_, body, reason) => {
    const bytes = body instanceof Uint8Array ? body : utf8(JSON.stringify(tlsReport(body)));
    expect(await refusal(bytes)).toMatchObject({ code: 'invalid_report', reason });
  });
});
