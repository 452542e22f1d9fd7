import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  defaultReadLimits,
  type ReadLimits,
  readReports,
} from '../../../src/reports/read/index.js';
import {
  aggregateXml,
  billionLaughs,
  deflateBomb,
  gzip,
  gzipBomb,
  recordXml,
  tlsJson,
  utf8,
  zip,
  zipBomb,
} from './builders.js';

/**
 * The bounds on what is read (docs/reports.md, "What is read"): bodies, expansions and records
 * past REPORTS_MAX_BYTES and 100,000 records refused as `report_too_large`, declarations refused
 * before any entity is expanded, memory bounded while a bomb is refused.
 */

async function outcome(body: Uint8Array, mediaType: string, limits: ReadLimits): Promise<unknown> {
  return readReports(body, mediaType, limits).then(
    (reports) => reports.length,
    (error: unknown) => error,
  );
}

const mebibyte = 1024 * 1024;
const small: ReadLimits = { maxBytes: 64 * 1024, maxRecords: 5 };
/** An aggregate report of `records` records, about 450 bytes each. */
const reportOf = (records: number, id = 'r') =>
  utf8(
    aggregateXml({
      metadata: `<org_name>o</org_name><report_id>${id}</report_id><date_range><begin>1</begin><end>2</end></date_range>`,
      records: Array.from({ length: records }, () => recordXml()),
    }),
  );

describe('bytes', () => {
  it('refuses a body larger than maxBytes before reading it', async () => {
    const body = new Uint8Array(64 * 1024 + 1);
    expect(await outcome(body, 'application/xml', small)).toMatchObject({
      code: 'report_too_large',
      reason: 'the body is 65537 bytes, more than 65536 bytes',
    });
    expect(
      await outcome(new Uint8Array(11 * mebibyte), 'application/gzip', defaultReadLimits),
    ).toMatchObject({
      code: 'report_too_large',
      reason: 'the body is 11534336 bytes, more than 10 MB',
    });
  });

  it('refuses a gzip that expands past maxBytes, and reads one that does not', async () => {
    const big = gzip(reportOf(200)); // about 90 KB of XML, a few KB of gzip
    expect(big.length).toBeLessThan(small.maxBytes);
    expect(await outcome(big, 'application/gzip', { ...small, maxRecords: 1000 })).toMatchObject({
      code: 'report_too_large',
      reason: 'the report expands past 65536 bytes',
    });
    expect(await outcome(gzip(reportOf(5)), 'application/gzip', small)).toBe(1);
  });

  it('refuses a zip whose entries expand past maxBytes together, though each stays under', async () => {
    const entry = reportOf(80); // about 36 KB each
    const limits = { ...small, maxRecords: 1000 };
    expect(await outcome(zip({ 'a.xml': entry }), 'application/zip', limits)).toBe(1);
    expect(
      await outcome(
        zip({ 'a.xml': entry, 'b.xml': reportOf(80, 'r2') }),
        'application/zip',
        limits,
      ),
    ).toMatchObject({ code: 'report_too_large', reason: 'the report expands past 65536 bytes' });
  });

  it('refuses a zip of more than 1,000 files', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 1001 }, (_, index) => [`f${index}.txt`, new Uint8Array(0)]),
    );
    expect(await outcome(zip(files), 'application/zip', defaultReadLimits)).toMatchObject({
      code: 'report_too_large',
      reason: 'the zip holds more than 1000 files',
    });
  });

  it('never opens a zip inside a zip (the nested bombs of 42.zip)', async () => {
    const inner = zip({ 'report.xml': reportOf(1) });
    expect(
      await outcome(zip({ 'inner.zip': inner }), 'application/zip', defaultReadLimits),
    ).toMatchObject({
      code: 'invalid_report',
      reason: 'the zip holds no XML or JSON report',
    });
  });

  it.each([
    [
      'a gzip cut short',
      () => gzip(reportOf(3)).subarray(0, 40),
      'application/gzip',
      /^the gzip data is damaged or cut short/,
    ],
    [
      'a zip cut short',
      () => zip({ 'a.xml': reportOf(3) }).subarray(0, 60),
      'application/zip',
      /^the zip archive is damaged or cut short/,
    ],
    [
      'gzip data that is no deflate',
      () => new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff]),
      'application/gzip',
      /^the gzip data is damaged or cut short/,
    ],
  ])('refuses %s as invalid', async (_, body, mediaType, reason) => {
    expect(await outcome(body(), mediaType, defaultReadLimits)).toMatchObject({
      code: 'invalid_report',
      reason: expect.stringMatching(reason),
    });
  });
});

describe('records', () => {
  it('reads maxRecords records and refuses one more', async () => {
    expect(await outcome(reportOf(5), 'application/xml', small)).toBe(1);
    expect(await outcome(reportOf(6), 'application/xml', small)).toMatchObject({
      code: 'report_too_large',
      reason: 'the report holds more than 5 records',
    });
  });

  it('counts prefixed records, and refuses too many before parsing them', async () => {
    const prefixed = (count: number) =>
      utf8(
        new TextDecoder()
          .decode(reportOf(count))
          .replace(/<(\/?)record>/g, '<$1d:record>')
          .replace('<feedback>', '<feedback xmlns:d="urn:ietf:params:xml:ns:dmarc-2.0">'),
      );
    expect(await outcome(prefixed(5), 'application/xml', small)).toBe(1);
    expect(await outcome(prefixed(6), 'application/xml', small)).toMatchObject({
      code: 'report_too_large',
      reason: 'the report holds more than 5 records',
    });
    // Text full of the name is no record, and costs one scan.
    const text = utf8(
      aggregateXml({
        records: [
          recordXml({
            evaluated: `<reason><type>other</type><comment>${' :record :record'.repeat(200_000)}</comment></reason>`,
          }),
        ],
      }),
    );
    expect(await outcome(text, 'application/xml', { ...defaultReadLimits, maxRecords: 1 })).toBe(1);
  });

  it("counts the records of a zip's reports together", async () => {
    const body = zip({ 'a.xml': reportOf(3, 'a'), 'b.xml': reportOf(3, 'b') });
    expect(await outcome(body, 'application/zip', small)).toMatchObject({
      code: 'report_too_large',
    });
  });

  it("counts a TLS report's policies and failure details", async () => {
    const policy = {
      policy: { 'policy-type': 'sts', 'policy-domain': 'example.com' },
      summary: { 'total-successful-session-count': 1, 'total-failure-session-count': 3 },
      'failure-details': [1, 2, 3].map(() => ({ 'result-type': 'x', 'failed-session-count': 1 })),
    };
    expect(await outcome(tlsJson({ policies: [policy] }), 'application/json', small)).toBe(1);
    expect(
      await outcome(tlsJson({ policies: [policy, policy] }), 'application/json', small),
    ).toMatchObject({
      code: 'report_too_large',
      reason: 'the report holds more than 5 records',
    });
  });
});

describe('markup declarations', () => {
  it.each([
    [
      'a DOCTYPE',
      '<!DOCTYPE feedback>',
      'XML with a DOCTYPE is not read (its entities are never expanded)',
    ],
    [
      'a DOCTYPE with an internal subset',
      '<!DOCTYPE feedback [<!ENTITY org "receiver.example">]>',
      'XML with a DOCTYPE is not read (its entities are never expanded)',
    ],
    [
      'a lower-case doctype',
      '<!doctype feedback>',
      'XML with a DOCTYPE is not read (its entities are never expanded)',
    ],
    [
      'an external entity',
      '<!DOCTYPE feedback [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
      'XML with a DOCTYPE is not read (its entities are never expanded)',
    ],
    [
      'an ENTITY outside a DOCTYPE',
      '<!ENTITY org "x">',
      'XML with a ENTITY is not read (its entities are never expanded)',
    ],
    [
      'an ELEMENT declaration',
      '<!ELEMENT feedback ANY>',
      'XML with markup declarations is not read',
    ],
  ])('refuses XML with %s', async (_, declaration, reason) => {
    const xml = aggregateXml({
      prolog: `<?xml version="1.0"?>\n<!-- a comment -->\n${declaration}\n`,
    });
    expect(await outcome(utf8(xml), 'application/xml', defaultReadLimits)).toEqual(
      expect.objectContaining({ code: 'invalid_report', reason }),
    );
  });

  it('refuses a DOCTYPE placed after the root element starts', async () => {
    const xml = aggregateXml().replace('<version>', '<!DOCTYPE x><version>');
    expect(await outcome(utf8(xml), 'application/xml', defaultReadLimits)).toMatchObject({
      code: 'invalid_report',
    });
  });

  it('reads "<!DOCTYPE" written inside a comment or a CDATA section: no declaration', async () => {
    const xml = aggregateXml({
      prolog: '<?xml version="1.0"?><!-- <!DOCTYPE feedback> -->',
      records: [
        recordXml({
          evaluated:
            '<reason><type>other</type><comment><![CDATA[<!DOCTYPE x>]]></comment></reason>',
        }),
      ],
    });
    expect(await outcome(utf8(xml), 'application/xml', defaultReadLimits)).toBe(1);
  });
});

describe('memory while a bomb is refused', () => {
  const folder = mkdtempSync(join(tmpdir(), 'report-bombs-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const script = fileURLToPath(new URL('./peak-memory.ts', import.meta.url));

  /** Reads the body in a fresh process (peak-memory.ts) and returns what it printed. */
  async function inOwnProcess(name: string, body: Uint8Array, mediaType: string) {
    const file = join(folder, name);
    writeFileSync(file, body);
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      script,
      file,
      mediaType,
    ]);
    return JSON.parse(stdout) as { code?: string; reason?: string; peakGrowthBytes: number };
  }

  it('builds bombs that are valid DEFLATE streams of the size they claim', () => {
    expect(inflateRawSync(deflateBomb(3)).length).toBe(3 * mebibyte);
    expect(deflateBomb(1024).length).toBeLessThan(1.1 * mebibyte);
  });

  it.each([
    ['a gzip', 'bomb.gz', () => gzipBomb(1024), 'application/gzip'],
    ['a zip whose header claims 100 bytes', 'bomb.zip', () => zipBomb(1024), 'application/zip'],
  ])(
    'refuses %s of about 1 MB that expands to 1 GiB at the bound, its peak memory a few tens of MB',
    async (_, name, body, mediaType) => {
      const result = await inOwnProcess(name, body(), mediaType);
      expect(result).toMatchObject({
        code: 'report_too_large',
        reason: 'the report expands past 10 MB',
      });
      // The bound's 10 MB kept, one push's output and the inflater's buffers: measured 20 to 37 MB.
      expect(result.peakGrowthBytes).toBeLessThan(48 * mebibyte);
    },
  );

  it('refuses the billion laughs with its entities never expanded, memory flat', async () => {
    const result = await inOwnProcess('laughs.xml', utf8(billionLaughs()), 'application/xml');
    expect(result).toMatchObject({
      code: 'invalid_report',
      reason: 'XML with a DOCTYPE is not read (its entities are never expanded)',
    });
    expect(result.peakGrowthBytes).toBeLessThan(4 * mebibyte);
  });
});
