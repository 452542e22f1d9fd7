/// <reference types="vite/client" />
import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  defaultReadLimits,
  readMessage,
  readReports,
  ReportReadError,
} from '../../src/reports/read/index.js';
import outlookXml from '../fixtures/reports/parsedmarc/aggregate/protection.outlook.com!example.com!1711756800!1711843200.xml?raw';
import mimecastMessage from '../fixtures/reports/parsedmarc/aggregate/mimecast-weird-gzip.eml?raw';
import googleTlsMessage from '../fixtures/reports/parsedmarc/smtp_tls/google.com_smtp_tls_report.eml?raw';
import rfc8460Json from '../fixtures/reports/parsedmarc/smtp_tls/rfc8460.json?raw';

/**
 * The reports' readers inside workerd (docs/reports.md, "What is read"): fast-xml-parser, fflate
 * and postal-mime as the Worker bundles them, through the same functions the Node suites test
 * (test/reports/read/). The sums are the hand counts of parsedmarc's samples, as there.
 */

const bytes = (text: string) => new TextEncoder().encode(text);

describe('reading reports on workerd', () => {
  it('reads a gzip aggregate report uploaded as application/gzip', async () => {
    const [report] = await readReports(
      gzipSync(bytes(outlookXml)),
      'application/gzip',
      defaultReadLimits,
    );
    expect(report).toMatchObject({
      kind: 'dmarc',
      org: 'Outlook.com',
      reportId: 'cfeafefe4129445e8c81018bd9177197',
      policy: { domain: 'example.com' },
      rows: [{ ip: '100.24.188.149', messages: 1, dkimAligned: false, spfAligned: false }],
    });
  });

  it("reads Mimecast's message whose whole body is a gzip report", async () => {
    const { reports, recipients } = await readMessage(bytes(mimecastMessage), defaultReadLimits);
    expect(recipients).toEqual(['dmarc_rua@ab.id.au']);
    expect(reports).toMatchObject([
      { kind: 'dmarc', org: 'Mimecast', policy: { domain: 'ab.id.au' } },
    ]);
    expect(reports[0]!.kind === 'dmarc' && reports[0]!.rows.map((row) => row.messages)).toEqual([
      1,
    ]);
  });

  it('reads a TLS report as application/tlsrpt+json and one gzipped in a message', async () => {
    const [rfc] = await readReports(
      bytes(rfc8460Json),
      'application/tlsrpt+json',
      defaultReadLimits,
    );
    expect(rfc).toMatchObject({
      kind: 'tls',
      org: 'Company-X',
      policies: [{ type: 'sts', domain: 'company-y.example', success: 5326, failure: 303 }],
    });
    const { reports } = await readMessage(bytes(googleTlsMessage), defaultReadLimits);
    expect(reports).toMatchObject([
      {
        kind: 'tls',
        org: 'Google Inc.',
        policies: [
          { type: 'no-policy-found', domain: 'cardinalhealth.ca', success: 48, failure: 0 },
        ],
      },
    ]);
  });

  it('refuses a DOCTYPE here too, with the same error', async () => {
    const refusal = await readReports(
      bytes('<?xml version="1.0"?><!DOCTYPE feedback [<!ENTITY a "b">]><feedback/>'),
      'text/xml',
      defaultReadLimits,
    ).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ReportReadError);
    expect(refusal).toMatchObject({ code: 'invalid_report' });
  });
});
