import type { DmarcReading } from '../checks/index.js';
import type { DmarcPolicy, FixRecord, TlsRpt } from '../results/index.js';
import { isTlsRptUri } from './tls-rpt.js';

/**
 * The exact records a fix publishes, built from what the check found and keeping what is there:
 * a DMARC record's valid tags, a TLS-RPT record's report addresses, the SPF include of the mail
 * provider the MX hosts show. Where nothing was found, a report address at the domain itself
 * stands in, named so the owner sees what to replace.
 */

/** RFC 7489 §6.3's order, the defaults left out. */
export function dmarcRecordFor(
  domain: string,
  reading: DmarcReading | null,
  policy?: DmarcPolicy,
): FixRecord {
  const written = reading?.written;
  const p = policy ?? written?.p ?? 'none';
  const tags = [`v=DMARC1`, `p=${p}`];
  if (written?.sp) tags.push(`sp=${written.sp}`);
  if (reading) {
    if (reading.pct !== 100) tags.push(`pct=${reading.pct}`);
    if (reading.adkim === 's') tags.push('adkim=s');
    if (reading.aspf === 's') tags.push('aspf=s');
    if (reading.fo.join(':') !== '0') tags.push(`fo=${reading.fo.join(':')}`);
    if (reading.rf.join(':') !== 'afrf') tags.push(`rf=${reading.rf.join(':')}`);
    if (reading.ri !== 86_400) tags.push(`ri=${reading.ri}`);
  }
  const rua = reading && reading.rua.length > 0 ? reading.rua : [`mailto:dmarc-reports@${domain}`];
  tags.push(`rua=${rua.join(',')}`);
  if (reading && reading.ruf.length > 0) tags.push(`ruf=${reading.ruf.join(',')}`);
  return { name: `_dmarc.${domain}`, type: 'TXT', value: tags.join('; ') };
}

/**
 * RFC 7208: an SPF record for a domain that has none: the include of the provider the MX hosts
 * show (its own SPF record names its senders), else the MX hosts themselves; `~all` (softfail)
 * while the owner checks that every sender is named.
 */
export function spfRecordFor(domain: string, providerIncludes: readonly string[]): FixRecord {
  const terms = providerIncludes.length > 0 ? providerIncludes.map((i) => `include:${i}`) : ['mx'];
  return { name: domain, type: 'TXT', value: `v=spf1 ${terms.join(' ')} ~all` };
}

/** RFC 8460 §3: the record with its valid report addresses, or one at the domain. */
export function tlsRptRecordFor(domain: string, tlsRpt: TlsRpt): FixRecord {
  const valid = tlsRpt.rua.filter(isTlsRptUri);
  const rua = valid.length > 0 ? valid : [`mailto:tls-reports@${domain}`];
  return { name: `_smtp._tls.${domain}`, type: 'TXT', value: `v=TLSRPTv1; rua=${rua.join(',')}` };
}

/** RFC 7489 §7.1: the record a report destination publishes to take `domain`'s reports. */
export function reportAuthorizationFor(domain: string, destination: string): FixRecord {
  return { name: `${domain}._report._dmarc.${destination}`, type: 'TXT', value: 'v=DMARC1' };
}
