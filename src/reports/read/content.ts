import type { XMLParser } from 'fast-xml-parser';
import { readAggregateReport } from './aggregate.js';
import type { ReadBudget } from './budget.js';
import { gunzip, unzip } from './decompress.js';
import { invalidReport, ReportReadError } from './errors.js';
import type { ParsedReport } from './model.js';
import { readTlsReport } from './tls.js';

/**
 * A report file read by what its bytes are, not by what it is labelled (as parsedmarc does): zip
 * and gzip by their magic numbers, then XML (an aggregate report) or JSON (a TLS report) by
 * their first character (`<`; `{` or `[`). Receivers label attachments loosely; the label
 * only decides whether a body is taken at all (read.ts).
 */

/** What one body's reading shares: its budget and one XML parser. */
export interface Reading {
  budget: ReadBudget;
  parser: XMLParser;
}

export type ContentKind = 'zip' | 'gzip' | 'xml' | 'json';

/**
 * APPNOTE.TXT §4.3.7 and §4.3.16: a zip starts with a local file header (`PK\3\4`), or, empty,
 * with the end of central directory record (`PK\5\6`). RFC 1952 §2.3.1: gzip's ID1 ID2.
 */
export function sniffContent(bytes: Uint8Array): ContentKind | undefined {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)) return 'zip';
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'gzip';
  const first = firstCharacter(bytes);
  return first === 0x3c ? 'xml' : first === 0x7b || first === 0x5b ? 'json' : undefined;
}

/** The first byte after a UTF-8 byte order mark and white space. */
function firstCharacter(bytes: Uint8Array): number | undefined {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (at < bytes.length && at < 4096) {
    const byte = bytes[at]!;
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return byte;
    at++;
  }
  return undefined;
}

/** The reports a file holds: one for XML, JSON or gzip, each report entry of a zip. */
export function readReportFile(bytes: Uint8Array, reading: Reading): ParsedReport[] {
  switch (sniffContent(bytes)) {
    case 'zip':
      return readZip(bytes, reading);
    case 'gzip': {
      const inner = gunzip(bytes, reading.budget);
      return [readDocument(inner, reading, 'the gzip data holds neither XML nor JSON')];
    }
    case 'xml':
    case 'json':
      return [readDocument(bytes, reading, '')];
    default:
      throw invalidReport(
        bytes.length === 0 ? 'the body is empty' : 'not a report: neither XML, JSON, gzip nor zip',
      );
  }
}

function readDocument(bytes: Uint8Array, reading: Reading, otherwise: string): ParsedReport {
  const kind = sniffContent(bytes);
  if (kind === 'xml') return readAggregateReport(bytes, reading.parser, reading.budget);
  if (kind === 'json') return readTlsReport(bytes, reading.budget);
  throw invalidReport(otherwise || 'not a report: neither XML nor JSON');
}

/**
 * Each XML or JSON file of a zip; other files (a folder's entries, macOS' `__MACOSX/._*`
 * metadata, a read-me) are passed over. A report entry that is refused refuses the archive.
 */
function readZip(bytes: Uint8Array, reading: Reading): ParsedReport[] {
  const reports: ParsedReport[] = [];
  for (const entry of unzip(bytes, reading.budget)) {
    const kind = sniffContent(entry.bytes);
    if (kind !== 'xml' && kind !== 'json') continue;
    try {
      reports.push(readDocument(entry.bytes, reading, ''));
    } catch (error) {
      throw error instanceof ReportReadError ? error.within(`zip entry "${entry.name}"`) : error;
    }
  }
  if (reports.length === 0) throw invalidReport('the zip holds no XML or JSON report');
  return reports;
}
