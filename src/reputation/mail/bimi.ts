import type { Bimi } from '../results/index.js';
import { parseTagList } from '../checks/index.js';

/**
 * BIMI (the AuthIndicators group's draft-brand-indicators-for-message-identification, §4): the
 * TXT record at `default._bimi.<domain>`, falling back to the organisational domain's; `l=` the
 * logo's HTTPS URL, `a=` the mark certificate's. A mailbox provider shows the logo only when
 * DMARC is enforced: p=quarantine or reject, pct=100 (the draft's §7.3 and the providers' pages).
 */

/** The draft's §4.2: the record starts with v=BIMI1. */
const bimiVersion = /^v[ \t]*=[ \t]*BIMI1[ \t]*(?:;|$)/;

export function bimiName(domain: string): string {
  return `default._bimi.${domain}`;
}

export function isBimiRecord(text: string): boolean {
  return bimiVersion.test(text);
}

/** An HTTPS URL or empty (an empty l= and a= declines BIMI for the domain, the draft's §4.3). */
function httpsOrEmpty(value: string): boolean {
  if (value === '') return true;
  if (!URL.canParse(value)) return false;
  return new URL(value).protocol === 'https:';
}

/** The BIMI fields of one record; `dmarcReady` says whether DMARC lets a logo show. */
export function readBimiRecord(record: string, dmarcReady: boolean): Bimi {
  const base = { record, l: null, a: null, dmarc_ready: dmarcReady };
  const list = parseTagList(record);
  if (!list.ok) return { ...base, status: 'invalid', detail: list.reason };
  const l = list.tags.get('l') ?? '';
  const a = list.tags.get('a') ?? '';
  const fields = { ...base, l: l === '' ? null : l, a: a === '' ? null : a };
  if (!httpsOrEmpty(l)) return { ...fields, status: 'invalid', detail: 'l= is not an HTTPS URL' };
  if (!httpsOrEmpty(a)) return { ...fields, status: 'invalid', detail: 'a= is not an HTTPS URL' };
  const notes = [
    ...(l === '' ? ['no logo (an empty l= declines BIMI)'] : []),
    ...(dmarcReady
      ? []
      : ['BIMI needs DMARC at p=quarantine or p=reject with pct=100: no logo is shown until then']),
  ];
  return { ...fields, status: 'found', detail: notes.length > 0 ? notes.join('; ') : null };
}

/** The DMARC condition for BIMI: an enforced policy on all of the mail. */
export function dmarcAllowsBimi(policy: string | null, pct: number): boolean {
  return (policy === 'quarantine' || policy === 'reject') && pct === 100;
}
