import { getDomain } from 'tldts';
import type { DnsOutcome } from '../../dns/index.js';
import { clip, type DmarcPolicy, type DmarcRecord, maxRecordChars } from '../results/index.js';

/**
 * DMARC policy discovery (RFC 7489 §6.6.3): the record at `_dmarc.<domain>`, or when there is
 * none, the one at `_dmarc.<organisational domain>`, which the Public Suffix List defines (§3.2).
 */

export type { DmarcPolicy, DmarcRecord } from '../results/index.js';

/**
 * The organisational domain (§3.2): the public suffix plus one label, by the Public Suffix List
 * bundled with tldts, private domains included (`github.io` sites are separate organisations).
 * Null when the name is itself a public suffix.
 */
export function organizationalDomain(name: string): string | null {
  return getDomain(name, { allowPrivateDomains: true });
}

/**
 * §6.6.3: of the TXT records at `_dmarc.<domain>`, those that start with the version tag
 * `v=DMARC1` count, and only exactly one is a policy. §6.4 takes DKIM's tag-list syntax, whose tag
 * names are case-sensitive (RFC 6376 §3.2), and §6.3 wants the value `DMARC1` matched precisely.
 */
const dmarcVersion = /^v[ \t]*=[ \t]*DMARC1[ \t]*(?:;|$)/;

/** A tag's value (§6.3); §6.4's ABNF lists the policy values as literals, matched in any case. */
function policyTag(record: string, tag: 'p' | 'sp'): DmarcPolicy | null | undefined {
  for (const part of record.split(';')) {
    const [name = '', value = ''] = part.split('=').map((text) => text.trim());
    if (name !== tag) continue;
    const policy = value.toLowerCase();
    return policy === 'none' || policy === 'quarantine' || policy === 'reject' ? policy : null;
  }
  return undefined;
}

/** What one `_dmarc` TXT lookup says, before any fallback. */
export type DmarcLookup =
  | { kind: 'found'; record: string }
  | { kind: 'none' }
  | { kind: 'multiple' }
  | { kind: 'unavailable' };

export function readDmarcLookup(outcome: DnsOutcome<string>): DmarcLookup {
  switch (outcome.status) {
    case 'answer': {
      const records = outcome.records.filter((text) => dmarcVersion.test(text));
      const [record] = records;
      if (record === undefined) return { kind: 'none' };
      return records.length > 1 ? { kind: 'multiple' } : { kind: 'found', record };
    }
    case 'nxdomain':
    case 'nodata':
      return { kind: 'none' };
    default:
      return { kind: 'unavailable' };
  }
}

const absent = { present: false, record: null, policy: null, applied: null, domain: null };

/**
 * The DMARC record that applies to `domain`, from the lookup at `_dmarc.<domain>` and, when that
 * found no record, the one at `_dmarc.<organizational>` (null when the domain is its own
 * organisational domain). §6.6.3 step 5: several records, at either step, mean no policy.
 */
export function applicableDmarc(
  domain: string,
  own: DmarcLookup,
  organizational: { domain: string; lookup: DmarcLookup } | null,
): DmarcRecord {
  if (own.kind === 'found') {
    return {
      status: 'found',
      present: true,
      record: clip(own.record, maxRecordChars),
      policy: policyTag(own.record, 'p') ?? null,
      applied: 'domain',
      domain,
    };
  }
  if (own.kind !== 'none' || organizational === null) return { status: own.kind, ...absent };
  const { lookup } = organizational;
  if (lookup.kind !== 'found') return { status: lookup.kind, ...absent };
  // §6.3 sp: the policy for subdomains; without it, p applies to them too.
  const subdomainPolicy = policyTag(lookup.record, 'sp');
  const policy =
    subdomainPolicy === undefined ? (policyTag(lookup.record, 'p') ?? null) : subdomainPolicy;
  return {
    status: 'found',
    present: true,
    record: clip(lookup.record, maxRecordChars),
    policy,
    applied: 'organizational',
    domain: organizational.domain,
  };
}
