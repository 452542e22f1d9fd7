import type { DmarcPolicy } from '../results/index.js';
import { parseTagList } from './tag-list.js';

/**
 * A DMARC record's tags (RFC 7489 §6.3) beyond the policy the domain tool reads: sp, pct, the
 * report addresses and the alignment modes, with their defaults, and the values §6.3 does not
 * allow named.
 */

export interface DmarcTags {
  p: DmarcPolicy | null;
  sp: DmarcPolicy | null;
  pct: number;
  rua: string[];
  ruf: string[];
  adkim: 'r' | 's';
  aspf: 'r' | 's';
  errors: string[];
}

const policies: readonly string[] = ['none', 'quarantine', 'reject'];

function policyOf(value: string | undefined, tag: string, errors: string[]): DmarcPolicy | null {
  if (value === undefined) return null;
  const policy = value.toLowerCase();
  if (policies.includes(policy)) return policy as DmarcPolicy;
  errors.push(`${tag}=${value} is not none, quarantine or reject`);
  return null;
}

function modeOf(value: string | undefined, tag: string, errors: string[]): 'r' | 's' {
  if (value === undefined) return 'r';
  const mode = value.toLowerCase();
  if (mode === 'r' || mode === 's') return mode;
  errors.push(`${tag}=${value} is not r or s`);
  return 'r';
}

/** §6.2: a comma-separated list of URIs, each optionally followed by "!" and a size limit. */
function urisOf(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((uri) => uri.trim())
    .filter((uri) => uri !== '');
}

export function readDmarcTags(record: string): DmarcTags {
  const errors: string[] = [];
  const list = parseTagList(record);
  const tags = list.ok ? list.tags : new Map<string, string>();
  if (!list.ok) errors.push(list.reason);
  const pctText = tags.get('pct');
  let pct = 100;
  if (pctText !== undefined) {
    if (/^\d{1,3}$/.test(pctText) && Number(pctText) <= 100) pct = Number(pctText);
    else errors.push(`pct=${pctText} is not an integer from 0 to 100`);
  }
  const p = policyOf(tags.get('p'), 'p', errors);
  if (tags.get('p') === undefined) errors.push('no p= tag (RFC 7489 §6.3 requires it)');
  return {
    p,
    sp: policyOf(tags.get('sp'), 'sp', errors),
    pct,
    rua: urisOf(tags.get('rua')),
    ruf: urisOf(tags.get('ruf')),
    adkim: modeOf(tags.get('adkim'), 'adkim', errors),
    aspf: modeOf(tags.get('aspf'), 'aspf', errors),
    errors,
  };
}

/**
 * The domain of a `mailto:` report URI (§6.2), lower case, with any `!size` suffix and URI
 * parameters dropped; undefined for any other scheme or a malformed address.
 */
export function reportDomainOf(uri: string): string | undefined {
  const match = /^mailto:[^@?!]+@([^?!]+)/i.exec(uri);
  const domain = match?.[1]?.toLowerCase().replace(/\.$/, '');
  return domain && /^[a-z0-9.-]+$/.test(domain) ? domain : undefined;
}

/**
 * §7.1: where a report destination must say it takes the reports of `policyDomain`: a TXT
 * record starting `v=DMARC1` at `<policyDomain>._report._dmarc.<destination>`.
 */
export function reportAuthorizationName(policyDomain: string, destination: string): string {
  return `${policyDomain}._report._dmarc.${destination}`;
}

/** §7.1: an answer authorises the reports when one of its TXT records starts with v=DMARC1. */
export function authorizesReports(records: readonly string[]): boolean {
  return records.some((record) => /^v[ \t]*=[ \t]*DMARC1[ \t]*(?:;|$)/.test(record));
}
