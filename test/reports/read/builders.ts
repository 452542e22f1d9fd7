import { constants, deflateRawSync } from 'node:zlib';
import { gzipSync, zipSync } from 'fflate';
import MailComposer from 'nodemailer/lib/mail-composer';

/**
 * Small synthetic reports for the rule tables: an RFC 7489 appendix C aggregate report whose
 * parts a test replaces, an RFC 8460 TLS report, gzip, zip and whole messages around them.
 */

export const utf8 = (text: string) => new TextEncoder().encode(text);

export interface RecordParts {
  sourceIp?: string;
  count?: string;
  disposition?: string;
  dkim?: string;
  spf?: string;
  /** Extra `policy_evaluated` children (reasons). */
  evaluated?: string;
  /** The whole `identifiers` element's children. */
  identifiers?: string;
  /** The whole `auth_results` element; `''` leaves it out. */
  authResults?: string;
  /** Extra children after `auth_results` (extensions). */
  extra?: string;
}

export function recordXml(parts: RecordParts = {}): string {
  const {
    sourceIp = '192.0.2.10',
    count = '3',
    disposition = 'none',
    dkim = 'pass',
    spf = 'fail',
    evaluated = '',
    identifiers = '<header_from>example.com</header_from>',
    authResults = '<auth_results><dkim><domain>example.com</domain><selector>s1</selector><result>pass</result></dkim><spf><domain>bounce.example.net</domain><scope>mfrom</scope><result>pass</result></spf></auth_results>',
    extra = '',
  } = parts;
  return `<record><row><source_ip>${sourceIp}</source_ip><count>${count}</count><policy_evaluated><disposition>${disposition}</disposition><dkim>${dkim}</dkim><spf>${spf}</spf>${evaluated}</policy_evaluated></row><identifiers>${identifiers}</identifiers>${authResults}${extra}</record>`;
}

export interface AggregateParts {
  /** Before the root element (declaration, comments, DOCTYPE). */
  prolog?: string;
  /** The root's start tag. */
  open?: string;
  close?: string;
  metadata?: string;
  policy?: string;
  /** Between policy_published and the records (RFC 9990's extension). */
  extension?: string;
  records?: string[];
}

export const defaultMetadata =
  '<org_name>receiver.example</org_name><email>dmarc@receiver.example</email><report_id>r-1</report_id><date_range><begin>1700000000</begin><end>1700086399</end></date_range>';

export function aggregateXml(parts: AggregateParts = {}): string {
  const {
    prolog = '<?xml version="1.0" encoding="UTF-8"?>\n',
    open = '<feedback>',
    close = '</feedback>',
    metadata = defaultMetadata,
    policy = '<domain>example.com</domain><adkim>r</adkim><aspf>r</aspf><p>none</p><sp>none</sp><pct>100</pct>',
    extension = '',
    records = [recordXml()],
  } = parts;
  return `${prolog}${open}<version>1.0</version><report_metadata>${metadata}</report_metadata><policy_published>${policy}</policy_published>${extension}${records.join('\n')}${close}`;
}

export function tlsReport(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'organization-name': 'Receiver Inc.',
    'date-range': {
      'start-datetime': '2024-01-09T00:00:00Z',
      'end-datetime': '2024-01-09T23:59:59Z',
    },
    'contact-info': 'tls-reports@receiver.example',
    'report-id': 'tls-1',
    policies: [
      {
        policy: {
          'policy-type': 'sts',
          'policy-domain': 'example.com',
          'mx-host': ['mx.example.com'],
        },
        summary: { 'total-successful-session-count': 10, 'total-failure-session-count': 2 },
        'failure-details': [
          {
            'result-type': 'certificate-expired',
            'sending-mta-ip': '198.51.100.7',
            'receiving-mx-hostname': 'mx.example.com',
            'receiving-ip': '203.0.113.9',
            'failed-session-count': 2,
          },
        ],
      },
    ],
    ...overrides,
  };
}

export const tlsJson = (overrides: Record<string, unknown> = {}) =>
  utf8(JSON.stringify(tlsReport(overrides)));

export const gzip = (bytes: Uint8Array) => gzipSync(bytes);

export const zip = (files: Record<string, Uint8Array>) => zipSync(files);

export interface MessageParts {
  headers?: Record<string, string>;
  to?: string;
  cc?: string;
  text?: string;
  attachments?: { filename?: string; contentType: string; content: Uint8Array }[];
}

/** A whole RFC 5322 message, composed by nodemailer as a receiver's mailer would send it. */
export async function message(parts: MessageParts): Promise<Uint8Array> {
  const composer = new MailComposer({
    from: 'noreply-dmarc@receiver.example',
    to: parts.to ?? 'dmarc@reports.example',
    cc: parts.cc,
    subject: 'Report Domain: example.com Submitter: receiver.example Report-ID: <r-1>',
    headers: parts.headers,
    text: parts.text ?? 'This is a DMARC aggregate report.',
    attachments: (parts.attachments ?? []).map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.contentType,
      content: Buffer.from(attachment.content),
    })),
  });
  return new Uint8Array(await composer.compile().build());
}

/**
 * A raw DEFLATE stream (RFC 1951) that expands to `mebibytes` MiB of zeros from about a
 * thousandth of that: one MiB of zeros deflated and flushed to a byte boundary without a final
 * block, repeated (each copy's matches reach back into zeros either way), then a final empty
 * block. DEFLATE expands at most about a thousandfold, so a bomb of a few KB reaches a few MB and
 * one of a GiB takes a MB.
 */
export function deflateBomb(mebibytes: number): Uint8Array {
  const piece = deflateRawSync(new Uint8Array(1024 * 1024), {
    level: 9,
    finishFlush: constants.Z_SYNC_FLUSH,
  });
  const stream = new Uint8Array(piece.length * mebibytes + 2);
  for (let copy = 0; copy < mebibytes; copy++) stream.set(piece, copy * piece.length);
  // A final fixed-Huffman block holding only its end-of-block code (BFINAL=1, BTYPE=01).
  stream.set([0x03, 0x00], piece.length * mebibytes);
  return stream;
}

/** RFC 1952 §2.3: one member around the stream; its trailer's CRC and size left zero. */
export function gzipBomb(mebibytes: number): Uint8Array {
  const header = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff];
  return new Uint8Array([...header, ...deflateBomb(mebibytes), 0, 0, 0, 0, 0, 0, 0, 0]);
}

/**
 * A zip of one deflated entry (APPNOTE.TXT §4.3.7, §4.3.12, §4.3.16) whose headers claim it
 * expands to `claimedSize` bytes.
 */
export function zipBomb(mebibytes: number, claimedSize = 100): Uint8Array {
  const data = deflateBomb(mebibytes);
  const name = utf8('report.xml');
  const local = new DataView(new ArrayBuffer(30));
  local.setUint32(0, 0x04034b50, true);
  local.setUint16(4, 20, true);
  local.setUint16(8, 8, true);
  local.setUint32(18, data.length, true);
  local.setUint32(22, claimedSize, true);
  local.setUint16(26, name.length, true);
  const central = new DataView(new ArrayBuffer(46));
  central.setUint32(0, 0x02014b50, true);
  central.setUint16(4, 20, true);
  central.setUint16(6, 20, true);
  central.setUint16(10, 8, true);
  central.setUint32(20, data.length, true);
  central.setUint32(24, claimedSize, true);
  central.setUint16(28, name.length, true);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, 1, true);
  end.setUint16(10, 1, true);
  end.setUint32(12, 46 + name.length, true);
  end.setUint32(16, 30 + name.length + data.length, true);
  const parts = [local.buffer, name, data, central.buffer, name, end.buffer].map(
    (part) => new Uint8Array(part),
  );
  const zipped = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    zipped.set(part, offset);
    offset += part.length;
  }
  return zipped;
}

/** The billion laughs (ten levels of ten references): about 3 GB of "lol" if ever expanded. */
export function billionLaughs(): string {
  const levels = ['<!ENTITY lol0 "lol">'];
  for (let level = 1; level <= 9; level++) {
    levels.push(`<!ENTITY lol${level} "${`&lol${level - 1};`.repeat(10)}">`);
  }
  return `<?xml version="1.0"?>\n<!DOCTYPE feedback [\n${levels.join('\n')}\n]>\n<feedback><report_metadata><org_name>&lol9;</org_name></report_metadata></feedback>`;
}
