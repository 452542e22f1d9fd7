import type { DmarcPolicy } from '../results/index.js';
import { dmarcTagRules, parseTagList } from './tag-list.js';

/**
 * One reading of a DMARC record (RFC 7489 §6.3, §6.4), for the domain tool and the mail tool
 * alike: the record as a receiver reads it. Tag names in any case (§6.4's ABNF literals), SP and
 * HTAB around `=` and `;`, the version's value exactly `DMARC1`; a tag named twice invalidates
 * the record (§6.4 takes DKIM's tag-list, RFC 6376 §3.2), and so does a value §6.3 does not
 * allow. A missing or invalid `p` (or an invalid `sp`) is read as §6.6.3 says: as `p=none` when
 * `rua` holds a valid URI, else no policy at all. Unknown tags are ignored (§6.3), and named.
 */

export interface DmarcReading {
  /** A receiver applies the record: it parses and has a policy (its own or §6.6.3's none). */
  valid: boolean;
  /** The policy for the domain itself, as applied: null when the record is not valid. */
  p: DmarcPolicy | null;
  /** The policy for subdomains when the record says one; null when absent or not valid. */
  sp: DmarcPolicy | null;
  pct: number;
  rua: string[];
  ruf: string[];
  adkim: 'r' | 's';
  aspf: 'r' | 's';
  /** Failure reporting options (`fo`, colon-separated of 0, 1, d, s; default 0). */
  fo: string[];
  /** Failure report formats (`rf`, colon-separated keywords; default afrf). */
  rf: string[];
  /** Aggregate report interval in seconds (`ri`, default 86400). */
  ri: number;
  /** Why the record is not valid, or what in it §6.3 does not allow. */
  errors: string[];
  /** What a receiver reads differently from what is written (a policy assumed, tags ignored). */
  warnings: string[];
  /** The p and sp as written when their values are allowed, whatever else is wrong: what a fix keeps. */
  written: { p: DmarcPolicy | null; sp: DmarcPolicy | null };
}

const policies: readonly string[] = ['none', 'quarantine', 'reject'];

/**
 * §6.6.3 step 3: a DMARC record starts with the version tag, `v=DMARC1`: the tag's name in any
 * case, its value exactly (§6.4 writes it as %x44 %x4d %x41 %x52 %x43 %x31).
 */
const versionTag = /^[vV][ \t]*=[ \t]*DMARC1[ \t]*(?:;|$)/;

export function isDmarcRecord(text: string): boolean {
  return versionTag.test(text);
}

/**
 * §6.4 dmarc-uri: a URI (RFC 3986: a scheme, ":", and no white space, "," or "!"), optionally "!"
 * and a size with a unit (k, m, g, t).
 */
const reportUri = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s,!;]+(?:![0-9]+[kmgtKMGT]?)?$/;

/** §6.4: `*WSP "," *WSP` between URIs. */
function urisOf(value: string | undefined, tag: string, errors: string[]): string[] {
  if (value === undefined) return [];
  const uris = value.split(',').map((uri) => uri.replace(/^[ \t]+|[ \t]+$/g, ''));
  const bad = uris.filter((uri) => !reportUri.test(uri));
  for (const uri of bad) errors.push(`${tag}: "${uri}" is not a URI (RFC 7489 §6.4)`);
  return uris.filter((uri) => reportUri.test(uri));
}

/** Colon-separated values, white space allowed around each `:` (§6.4 dmarc-fo, dmarc-rfmt). */
function listOf(value: string): string[] {
  return value.split(':').map((part) => part.replace(/^[ \t]+|[ \t]+$/g, ''));
}

/** What each other tag reads as, or why its value is not allowed. */
function readOtherTags(tags: Map<string, string>, errors: string[]) {
  const mode = (tag: 'adkim' | 'aspf'): 'r' | 's' => {
    const value = tags.get(tag);
    if (value === undefined) return 'r';
    const lower = value.toLowerCase();
    if (lower === 'r' || lower === 's') return lower;
    errors.push(`${tag}=${value} is not r or s`);
    return 'r';
  };
  let pct = 100;
  const pctText = tags.get('pct');
  if (pctText !== undefined) {
    // §6.4 dmarc-percent = 1*3DIGIT, and §6.3 an integer from 0 to 100.
    if (/^[0-9]{1,3}$/.test(pctText) && Number(pctText) <= 100) pct = Number(pctText);
    else errors.push(`pct=${pctText} is not an integer from 0 to 100`);
  }
  let fo = ['0'];
  const foText = tags.get('fo');
  if (foText !== undefined) {
    fo = listOf(foText).map((option) => option.toLowerCase());
    if (fo.some((option) => !['0', '1', 'd', 's'].includes(option))) {
      errors.push(`fo=${foText} is not a colon-separated list of 0, 1, d and s`);
    }
  }
  let rf = ['afrf'];
  const rfText = tags.get('rf');
  if (rfText !== undefined) {
    // §6.4 dmarc-rfmt: Keywords (RFC 5321 §4.1.2: a letter or digit, then letters, digits, "-").
    rf = listOf(rfText);
    if (rf.some((format) => !/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/.test(format))) {
      errors.push(`rf=${rfText} is not a colon-separated list of report formats`);
    }
  }
  let ri = 86_400;
  const riText = tags.get('ri');
  if (riText !== undefined) {
    // §6.4 dmarc-ainterval = 1*DIGIT; §6.3: a 32-bit unsigned integer.
    if (/^[0-9]{1,10}$/.test(riText) && Number(riText) <= 0xffff_ffff) ri = Number(riText);
    else errors.push(`ri=${riText} is not a number of seconds`);
  }
  return { adkim: mode('adkim'), aspf: mode('aspf'), pct, fo, rf, ri };
}

/** §6.3's tags; others are ignored, as §6.3 says receivers must. */
const knownTags = new Set(['v', 'p', 'sp', 'pct', 'rua', 'ruf', 'adkim', 'aspf', 'fo', 'rf', 'ri']);

/** §6.3's tags as they read without a record, or where a record leaves them out. */
export function dmarcDefaults(): Pick<
  DmarcReading,
  'p' | 'sp' | 'pct' | 'rua' | 'ruf' | 'adkim' | 'aspf' | 'fo' | 'rf' | 'ri'
> {
  return {
    p: null,
    sp: null,
    pct: 100,
    rua: [],
    ruf: [],
    adkim: 'r',
    aspf: 'r',
    fo: ['0'],
    rf: ['afrf'],
    ri: 86_400,
  };
}

/** A record no receiver applies: its tags as far as they were read, and why. */
function notValid(
  errors: string[],
  warnings: string[],
  read: Partial<DmarcReading> = {},
): DmarcReading {
  return {
    valid: false,
    ...dmarcDefaults(),
    written: { p: null, sp: null },
    ...read,
    errors,
    warnings,
  };
}

/** The record as a receiver applies it (the TXT strings joined, as the DNS server sent them). */
export function readDmarcRecord(record: string): DmarcReading {
  const warnings: string[] = [];
  const list = parseTagList(record, dmarcTagRules);
  if (!list.ok) return notValid([list.reason], warnings);
  const { tags } = list;
  if ([...tags.keys()][0] !== 'v' || tags.get('v') !== 'DMARC1') {
    return notValid(['the record does not start with v=DMARC1 (RFC 7489 §6.4)'], warnings);
  }
  const errors: string[] = [];
  const other = readOtherTags(tags, errors);
  const rua = urisOf(tags.get('rua'), 'rua', errors);
  const ruf = urisOf(tags.get('ruf'), 'ruf', errors);
  const unknown = [...tags.keys()].filter((tag) => !knownTags.has(tag));
  if (unknown.length > 0) {
    warnings.push(`unknown tags ignored (RFC 7489 §6.3): ${unknown.join(', ')}`);
  }
  const policyOf = (tag: 'p' | 'sp'): DmarcPolicy | null | 'invalid' => {
    const value = tags.get(tag);
    if (value === undefined) return null;
    const lower = value.toLowerCase();
    return policies.includes(lower) ? (lower as DmarcPolicy) : 'invalid';
  };
  const p = policyOf('p');
  const sp = policyOf('sp');
  const written = {
    p: p === 'invalid' ? null : p,
    sp: sp === 'invalid' ? null : sp,
  };
  if (errors.length > 0) return notValid(errors, warnings, { ...other, rua, ruf, written });
  if (p === null || p === 'invalid' || sp === 'invalid') {
    const why =
      p === null
        ? 'no p= tag'
        : p === 'invalid'
          ? `p=${tags.get('p')} is not none, quarantine or reject`
          : `sp=${tags.get('sp')} is not none, quarantine or reject`;
    // §6.6.3: without a valid p (or with an invalid sp), a receiver acts as if the record said
    // p=none when rua holds a valid URI, and applies no DMARC otherwise.
    if (rua.length > 0) {
      warnings.push(
        `${why}: receivers read the record as p=none, since rua is valid (RFC 7489 §6.6.3)`,
      );
      return {
        ...other,
        valid: true,
        p: 'none',
        sp: null,
        rua,
        ruf,
        errors: [],
        warnings,
        written,
      };
    }
    const error = `${why}, and no valid rua: receivers apply no DMARC (RFC 7489 §6.6.3)`;
    return notValid([error], warnings, { ...other, rua, ruf, written });
  }
  return { ...other, valid: true, p, sp, rua, ruf, errors, warnings, written };
}
