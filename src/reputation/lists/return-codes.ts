import { dnswlEntry, gradeDecoders, type Grade } from './grades.js';
import type { DnsblZone } from './zones.js';
import {
  type AllowlistEntry,
  type Listing,
  type Severity,
  type TrustLevel,
  trustLevels,
} from '../results/index.js';

/**
 * What a list's A answer means (RFC 5782 §2.1: a listing is an A record, conventionally inside
 * 127.0.0.0/8). Only a code the zone documents is a listing; everything else is an error the user
 * must see, never a silent "listed" or "clean".
 */

export type { Listing } from '../results/index.js';

export type Reading =
  | { status: 'listed'; listings: Listing[]; grade?: Grade }
  | { status: 'allowlisted'; entries: AllowlistEntry[]; trust: TrustLevel }
  | { status: 'clean'; grade?: Grade }
  | { status: 'error'; error: string };

/** An allowlist: marked so, or read on DNSWL's scale (a zone list of before the `allowlist` key). */
export function isAllowlist(zone: Pick<DnsblZone, 'allowlist' | 'grade'>): boolean {
  return zone.allowlist === true || zone.grade === 'dnswl';
}

const inLoopbackNet = (code: string) => /^127\.\d+\.\d+\.\d+$/.test(code);

/** Spamhaus (and Validity) answer 127.255.255.252/254/255 for refused queries: never a listing. */
const inSpamhausErrorNet = (code: string) => code.startsWith('127.255.255.');

export function readAnswer(zone: DnsblZone, codes: readonly string[]): Reading {
  if (codes.length === 0) return { status: 'clean' };
  const outside = codes.find((code) => !inLoopbackNet(code));
  if (outside !== undefined) {
    return {
      status: 'error',
      error: `answer ${outside} is outside 127.0.0.0/8: the resolver rewrites answers`,
    };
  }
  for (const code of codes) {
    const documented = zone.errors?.[code];
    if (documented !== undefined)
      return { status: 'error', error: `${code}: ${documented.meaning}` };
    if (inSpamhausErrorNet(code)) {
      return { status: 'error', error: `${code}: the list refused the query` };
    }
  }
  if (isAllowlist(zone)) return readAllowlist(zone, codes);
  if (zone.grade !== undefined) return readGrade(zone, codes);
  return readListings(zone, codes);
}

/**
 * An allowlist's hit vouches for the target: never a listing, and worth what its trust level is
 * worth to the score (score.ts). Its codes are read from its table (each with its trust; a code
 * without one trusts `none`), or on DNSWL's scale; an undocumented code stays an error, as on any
 * list.
 */
function readAllowlist(zone: DnsblZone, codes: readonly string[]): Reading {
  let entries: AllowlistEntry[] = [];
  if (zone.grade === 'dnswl') {
    for (const code of codes) {
      const read = dnswlEntry(code);
      if ('error' in read) return { status: 'error', error: read.error };
      entries.push(read.entry);
    }
  } else {
    const read = readListings(zone, codes);
    if (read.status !== 'listed') return read;
    entries = read.listings.map((listing) => ({
      code: listing.code,
      meaning: listing.meaning,
      trust: zone.codes?.[listing.code]?.trust ?? 'none',
    }));
  }
  const trust = entries.reduce<TrustLevel>(
    (highest, entry) =>
      trustLevels.indexOf(entry.trust) > trustLevels.indexOf(highest) ? entry.trust : highest,
    'none',
  );
  return { status: 'allowlisted', entries, trust };
}

function readGrade(zone: DnsblZone, codes: readonly string[]): Reading {
  const decode = gradeDecoders[zone.grade as keyof typeof gradeDecoders];
  // A graded list may add informational records beside the grade; the first valid grade counts.
  const readings = codes.map(decode);
  const graded = readings.find((reading) => 'grade' in reading);
  if (graded === undefined || !('grade' in graded)) {
    const first = readings[0];
    return { status: 'error', error: first && 'error' in first ? first.error : 'no grade' };
  }
  const { grade } = graded;
  if (!grade.listed) return { status: 'clean', grade };
  const listing = { code: codes[0]!, meaning: grade.label, severity: zone.severity, weight: 0 };
  return { status: 'listed', listings: [listing], grade };
}

function readListings(zone: DnsblZone, codes: readonly string[]): Reading {
  const listings: Listing[] = [];
  const unknown: string[] = [];
  for (const code of codes) {
    const meanings = zone.codes
      ? exactMeaning(zone, code)
      : zone.bitmask
        ? bitmaskMeanings(zone, code)
        : conventionalMeaning(zone, code);
    if (meanings.length === 0) unknown.push(code);
    listings.push(...meanings);
  }
  if (listings.length > 0) return { status: 'listed', listings };
  // RFC 5782 §5: 127.0.0.1 must never be listed, so a list answering it is broken or refusing.
  return { status: 'error', error: `undocumented return code ${unknown.join(', ')}` };
}

/**
 * A zone without a code table: RFC 5782 §2.1's convention that an A record is a listing, kept to
 * 127.0.0.2-127.0.0.254. 127.0.0.1 is never a listing (§5) and other 127/8 answers stay unknown.
 */
function conventionalMeaning(zone: DnsblZone, code: string): Listing[] {
  const last = Number(code.split('.')[3]);
  if (!code.startsWith('127.0.0.') || last < 2 || last > 254) return [];
  return [listingOf(zone, code, { meaning: `listed (${code})` })];
}

function exactMeaning(zone: DnsblZone, code: string): Listing[] {
  const meaning = zone.codes?.[code];
  if (!meaning) return [];
  return [listingOf(zone, code, meaning)];
}

/**
 * SURBL and URIBL: each bit of the last octet of 127.0.0.X is one list (RFC 5782 §2.3 allows
 * bitmasks). A code outside 127.0.0.0/24 or with a bit the zone does not document (SURBL's bit 1
 * means the querier is blocked) is undocumented as a whole, not a listing of its known bits.
 */
function bitmaskMeanings(zone: DnsblZone, code: string): Listing[] {
  const bits = Object.entries(zone.bitmask ?? {});
  const documented = bits.reduce((mask, [bit]) => mask | Number(bit), 0);
  const octet = Number(code.split('.')[3]);
  if (!code.startsWith('127.0.0.') || (octet & ~documented) !== 0) return [];
  return bits
    .filter(([bit]) => (octet & Number(bit)) !== 0)
    .map(([, meaning]) => listingOf(zone, code, meaning));
}

function listingOf(
  zone: DnsblZone,
  code: string,
  meaning: { meaning: string; severity?: Severity; weight?: number; kind?: 'policy' },
): Listing {
  return {
    code,
    meaning: meaning.meaning,
    severity: meaning.severity ?? zone.severity,
    weight: meaning.weight ?? zone.weight,
    ...(meaning.kind === 'policy' ? { policy: true as const } : {}),
  };
}
