/**
 * A report's bytes as text, without failing on the bytes receivers really send: UTF-8 as XML and
 * RFC 8460 say, with U+FFFD for the bytes that are not (one pass, nothing refused); Latin-1 when
 * the XML declaration names a single-byte encoding (ISO-8859-x, windows-125x, US-ASCII), which
 * maps every byte to a character and keeps the values ASCII they are made of.
 */

const utf8 = new TextDecoder('utf-8');

/** `<?xml ... encoding="..."?>`: looked for in the declaration only (XML 1.0 §4.3.3). */
const declaredEncoding = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/;
const singleByte = /^(iso[-_]?8859[-_]?\d+|latin-?1|l1|windows-125\d|cp125\d|us-ascii|ascii)$/i;

export function reportText(bytes: Uint8Array): string {
  const head = latin1(bytes.subarray(0, 200));
  const encoding = declaredEncoding.exec(head)?.[1];
  return encoding && singleByte.test(encoding) ? latin1(bytes) : utf8.decode(bytes);
}

/** One character per byte, in slices small enough for `String.fromCharCode`'s arguments. */
function latin1(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += 8192) {
    parts.push(String.fromCharCode(...bytes.subarray(offset, offset + 8192)));
  }
  return parts.join('');
}
