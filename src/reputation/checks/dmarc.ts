import { getDomain } from 'tldts';
import type { DnsOutcome } from '../../dns/index.js';
import { clip, type DmarcRecord, maxRecordChars } from '../results/index.js';
import { type DmarcReading, isDmarcRecord, readDmarcRecord } from './dmarc-record.js';

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

/** What one `_dmarc` TXT lookup says, before any fallback. */
export type DmarcLookup =
  | { kind: 'found'; record: string }
  | { kind: 'none' }
  | { kind: 'multiple' }
  | { kind: 'unavailable' };

/** §6.6.3: of the TXT records at `_dmarc.<domain>`, those starting `v=DMARC1` count; one is a policy. */
export function readDmarcLookup(outcome: DnsOutcome<string>): DmarcLookup {
  switch (outcome.status) {
    case 'answer': {
      const records = outcome.records.filter(isDmarcRecord);
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

/** The record that applies as the result shows it, and as it was read (null without one). */
export interface AppliedDmarc {
  shown: DmarcRecord;
  reading: DmarcReading | null;
}

const absent = {
  present: false,
  record: null,
  policy: null,
  applied: null,
  domain: null,
  errors: [],
  warnings: [],
};

function appliedRecord(
  record: string,
  applied: 'domain' | 'organizational',
  domain: string,
): AppliedDmarc {
  const reading = readDmarcRecord(record);
  // §6.3 sp: the policy for subdomains; without it, p applies to them too.
  const policy = applied === 'domain' ? reading.p : (reading.sp ?? reading.p);
  return {
    shown: {
      status: reading.valid ? 'found' : 'invalid',
      present: true,
      record: clip(record, maxRecordChars),
      policy,
      applied,
      domain,
      errors: reading.errors,
      warnings: reading.warnings,
    },
    reading,
  };
}

/**
 * The DMARC record that applies to `domain`, from the lookup at `_dmarc.<domain>` and, when that
 * found no record, the one at `_dmarc.<organizational>` (null when the domain is its own
 * organisational domain). §6.6.3 step 5: several records, at either step, mean no policy. A
 * record that is not valid is still the domain's record: a receiver does not look past it.
 */
export function applicableDmarc(
  domain: string,
  own: DmarcLookup,
  organizational: { domain: string; lookup: DmarcLookup } | null,
): AppliedDmarc {
  if (own.kind === 'found') return appliedRecord(own.record, 'domain', domain);
  if (own.kind !== 'none' || organizational === null) {
    return { shown: { status: own.kind, ...absent }, reading: null };
  }
  const { lookup } = organizational;
  if (lookup.kind !== 'found') return { shown: { status: lookup.kind, ...absent }, reading: null };
  return appliedRecord(lookup.record, 'organizational', organizational.domain);
}
