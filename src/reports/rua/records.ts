import {
  type DmarcLookup,
  dmarcTagRules,
  parseTagList,
  readDmarcRecord,
  readTlsRpt,
  reportingTagRules,
} from '../../reputation/index.js';
import { namesAddress } from './addresses.js';

/**
 * The records a domain publishes to send its reports to an inbox (docs/reports.md, "Pointing rua
 * here"), built from what it publishes now: its DMARC record (RFC 7489 §6.3) with the inbox's
 * address added to `rua=`, every other tag and destination kept; its TLS-RPT record (RFC 8460 §3)
 * likewise. Tags are rewritten `tag=value; ...` in their order, so only their spacing may change.
 */

/** One TXT record to publish, and what it changes. */
export interface SuggestedRecord {
  name: string;
  type: 'TXT';
  /** The record there now (for DMARC, the domain's own), or null. */
  current: string | null;
  /** The record to publish; null when the DNS did not answer, so nothing could be built. */
  value: string | null;
  /** create: none is there; update: add the address; none: it names the address already. */
  change: 'create' | 'update' | 'none' | null;
  /** Why the value is what it is, in a sentence; null when plain. */
  detail: string | null;
}

const mailto = (address: string) => `mailto:${address}`;

function written(tags: Iterable<[string, string]>): string {
  return [...tags].map(([tag, value]) => `${tag}=${value}`).join('; ');
}

/** The tag list with `address` added to its rua (created when absent); unchanged when named. */
function withAddress(
  tags: Map<string, string>,
  address: string,
): { tags: Map<string, string>; named: boolean } {
  const uris = (tags.get('rua') ?? '')
    .split(',')
    .map((uri) => uri.trim())
    .filter((uri) => uri !== '');
  if (uris.some((uri) => namesAddress(uri, address))) return { tags, named: true };
  const next = new Map(tags);
  next.set('rua', [...uris, mailto(address)].join(','));
  return { tags: next, named: false };
}

/** The record there now with the address added to its rua, or as it is when it names it. */
function updated(
  name: string,
  current: string,
  tags: Map<string, string>,
  address: string,
): SuggestedRecord {
  const { tags: next, named } = withAddress(tags, address);
  return {
    name,
    type: 'TXT',
    current,
    value: written(next),
    change: named ? 'none' : 'update',
    detail: named ? 'it names this inbox’s address already' : null,
  };
}

const unanswered = (name: string, what: string): SuggestedRecord => ({
  name,
  type: 'TXT',
  current: null,
  value: null,
  change: null,
  detail: `the DNS gave no usable answer for ${what}: ask again with POST .../verify`,
});

/**
 * `_dmarc.<domain>`: the domain's own record with the address added. Without one, a new record
 * that changes nothing but the reports: the policy that applies now (the organisational domain's
 * `sp`, else its `p`, RFC 7489 §6.6.3), its other tags and destinations kept; `p=none` when no
 * record applies at all.
 */
export function suggestDmarc(
  domain: string,
  address: string,
  own: DmarcLookup,
  organizational: { domain: string; lookup: DmarcLookup } | null,
): SuggestedRecord {
  const name = `_dmarc.${domain}`;
  if (own.kind === 'unavailable') return unanswered(name, name);
  if (own.kind === 'multiple') {
    return {
      ...fresh(name, address, null),
      detail: `${name} holds several v=DMARC1 records, which receivers ignore (RFC 7489 §6.6.3): publish this one in their place`,
    };
  }
  if (own.kind === 'found') {
    const list = parseTagList(own.record, dmarcTagRules);
    if (!list.ok) {
      return {
        ...fresh(name, address, own.record),
        detail: `the record there is not a valid tag list (${list.reason}), so receivers ignore it: publish this one in its place`,
      };
    }
    return updated(name, own.record, list.tags, address);
  }
  if (organizational === null) return fresh(name, address, null);
  const parent = `_dmarc.${organizational.domain}`;
  if (organizational.lookup.kind === 'unavailable') return unanswered(name, parent);
  if (organizational.lookup.kind !== 'found') return fresh(name, address, null);
  const list = parseTagList(organizational.lookup.record, dmarcTagRules);
  if (!list.ok) return fresh(name, address, null);
  // The policy subdomains have now: sp, else p (RFC 7489 §6.3), as the one reading of the record
  // gives it (checks/dmarc-record.ts).
  const parentTags = readDmarcRecord(organizational.lookup.record);
  const policy = parentTags.sp ?? parentTags.p ?? 'none';
  const tags = new Map(list.tags);
  tags.set('p', policy);
  tags.delete('sp');
  return {
    name,
    type: 'TXT',
    current: null,
    value: written(withAddress(tags, address).tags),
    change: 'create',
    detail: `${domain} has no record of its own and follows ${parent} (p=${policy} for it): this one keeps that policy and its destinations, and sends this domain’s reports here too`,
  };
}

function fresh(name: string, address: string, current: string | null): SuggestedRecord {
  return {
    name,
    type: 'TXT',
    current,
    value: written([
      ['v', 'DMARC1'],
      ['p', 'none'],
      ['rua', mailto(address)],
    ]),
    change: current === null ? 'create' : 'update',
    detail: null,
  };
}

/** `_smtp._tls.<domain>`: the TLS-RPT record with the address added, or a new one. */
export function suggestTlsRpt(
  domain: string,
  address: string,
  records: readonly string[] | undefined,
): SuggestedRecord {
  const name = `_smtp._tls.${domain}`;
  if (records === undefined) return unanswered(name, name);
  const current = readTlsRpt(records);
  const list =
    current.record === null ? undefined : parseTagList(current.record, reportingTagRules);
  if (current.record === null || !list?.ok || current.status !== 'found') {
    return {
      name,
      type: 'TXT',
      current: current.record,
      value: written([
        ['v', 'TLSRPTv1'],
        ['rua', mailto(address)],
      ]),
      change: current.record === null ? 'create' : 'update',
      detail: current.detail,
    };
  }
  return updated(name, current.record, list.tags, address);
}

/** Whether the domain's own DMARC record, or its TLS-RPT record, names `address` in its rua. */
export function namesInbox(
  own: DmarcLookup,
  tlsRecords: readonly string[] | undefined,
  address: string,
): boolean {
  const dmarc =
    own.kind === 'found' &&
    readDmarcRecord(own.record).rua.some((uri) => namesAddress(uri, address));
  const tls =
    tlsRecords !== undefined &&
    readTlsRpt(tlsRecords).rua.some((uri) => namesAddress(uri, address));
  return dmarc || tls;
}
