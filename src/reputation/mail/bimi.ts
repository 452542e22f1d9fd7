import type { Resolver } from '../../dns/index.js';
import { organizationalDomain } from '../checks/index.js';
import type { Bimi, MailDmarc } from '../results/index.js';
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

/** The BIMI record at the domain, or failing that at its organisational domain (the draft's §4.4). */
export async function checkBimi(
  dns: Resolver,
  domain: string,
  dmarc: Promise<MailDmarc>,
): Promise<Bimi> {
  const organizational = organizationalDomain(domain);
  const fallback = organizational !== null && organizational !== domain ? organizational : null;
  const [own, inherited] = await Promise.all([
    dns.query(bimiName(domain), 'TXT'),
    fallback === null ? undefined : dns.query(bimiName(fallback), 'TXT'),
  ]);
  const { policy, pct } = await dmarc;
  const ready = dmarcAllowsBimi(policy, pct);
  for (const outcome of [own, inherited]) {
    if (outcome === undefined) continue;
    if (outcome.status === 'answer') {
      const records = outcome.records.filter(isBimiRecord);
      if (records.length === 1) return readBimiRecord(records[0]!, ready);
      if (records.length > 1) {
        return {
          status: 'invalid',
          record: records[0]!,
          l: null,
          a: null,
          dmarc_ready: ready,
          detail: `${records.length} v=BIMI1 records`,
        };
      }
    } else if (outcome.status !== 'nxdomain' && outcome.status !== 'nodata') {
      return {
        status: 'unavailable',
        record: null,
        l: null,
        a: null,
        dmarc_ready: ready,
        detail: `no usable DNS answer (${outcome.status})`,
      };
    }
  }
  return { status: 'none', record: null, l: null, a: null, dmarc_ready: ready, detail: null };
}
