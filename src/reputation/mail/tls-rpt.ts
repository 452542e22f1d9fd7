import type { TlsRpt } from '../results/index.js';
import { parseTagList, reportingTagRules } from '../checks/index.js';

/**
 * SMTP TLS Reporting (RFC 8460 §3): the TXT record at `_smtp._tls.<domain>`, `v=TLSRPTv1` then
 * `rua=`, a comma-separated list of `mailto:` and `https:` URIs where senders report the TLS
 * failures they met delivering to the domain.
 */

export function tlsRptName(domain: string): string {
  return `_smtp._tls.${domain}`;
}

/** §3: the record starts with the version, exactly "v=TLSRPTv1", then *WSP and ";" (field-delim). */
function isTlsRptRecord(text: string): boolean {
  return /^v=TLSRPTv1[ \t]*(?:;|$)/.test(text);
}

/** §3 tlsrpt-ext-value: 1*(%x21-3A / %x3C / %x3E-7E), printable but for ";" and "=". */
export const extensionValue = /^[\x21-\x3a\x3c\x3e-\x7e]+$/;

/** §3 tlsrpt-uri: where reports go, a mailto: or an https: URI. */
export function isTlsRptUri(uri: string): boolean {
  return /^(?:mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/i.test(uri);
}

/** The TLS-RPT result from the TXT records at the name (none: no record starts with the version). */
export function readTlsRpt(records: readonly string[]): TlsRpt {
  const found = records.filter(isTlsRptRecord);
  if (found.length === 0) return { status: 'none', record: null, rua: [], detail: null };
  const record = found[0]!;
  // §3: "If the number of resulting records is not one, senders MUST assume ... not implemented".
  if (found.length > 1) {
    return {
      status: 'invalid',
      record,
      rua: [],
      detail: `${found.length} v=TLSRPTv1 records (RFC 8460 §3 wants one)`,
    };
  }
  const list = parseTagList(record, reportingTagRules);
  if (!list.ok)
    return { status: 'invalid', record, rua: [], detail: `${list.reason} (RFC 8460 §3)` };
  const extension = [...list.tags].find(
    ([name, value]) => name !== 'v' && name !== 'rua' && !extensionValue.test(value),
  );
  if (extension !== undefined) {
    return {
      status: 'invalid',
      record,
      rua: [],
      detail: `${extension[0]}= has no value RFC 8460 §3 allows`,
    };
  }
  // §3 tlsrpt-rua: URIs separated by *WSP "," *WSP.
  const rua = (list.tags.get('rua') ?? '')
    .split(',')
    .map((uri) => uri.replace(/^[ \t]+|[ \t]+$/g, ''))
    .filter((uri) => uri !== '');
  if (rua.length === 0) return { status: 'invalid', record, rua, detail: 'no rua= report address' };
  const bad = rua.find((uri) => !isTlsRptUri(uri));
  if (bad !== undefined) {
    return { status: 'invalid', record, rua, detail: `${bad} is not a mailto: or https: URI` };
  }
  return { status: 'found', record, rua, detail: null };
}
