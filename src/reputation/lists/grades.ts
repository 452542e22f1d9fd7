import type { GradeDecoder } from './zones.js';
import { type AllowlistEntry, type Grade, trustLevels } from '../results/index.js';

/**
 * Reputation lists answer with a grade, not a yes/no listing. Each decoder reads one list's
 * documented scale into points added to (or taken off) the score. Only HostKarma's "black" grade is
 * also a listing; the others are grades whatever their value. DNSWL's answers are no grade but an
 * allowlist's trust level (`dnswlEntry`).
 */

export type { Grade } from '../results/index.js';

export type GradeReading = { grade: Grade } | { error: string };

const lastOctet = (code: string): number => Number(code.split('.')[3]);

/** Mailspike reputation: 127.0.0.10 (L5, worst) ... .14 (L1), .15 neutral, .16-.20 good (H1-H5). */
function mailspikeRep(code: string): GradeReading {
  const level = lastOctet(code);
  if (!code.startsWith('127.0.0.') || level < 10 || level > 20) return unknown(code);
  if (level <= 14) {
    const points = [-20, -15, -10, -5, -2][level - 10] ?? 0;
    return { grade: { label: `poor reputation L${15 - level}`, points, listed: false } };
  }
  if (level === 15) return { grade: { label: 'neutral reputation', points: 0, listed: false } };
  return { grade: { label: `good reputation H${level - 15}`, points: 0, listed: false } };
}

/** Validity Sender Score: 127.0.4.N where N is the score 0..100; no answer means no data. */
function senderScore(code: string): GradeReading {
  const score = lastOctet(code);
  if (!code.startsWith('127.0.4.') || score > 100) return unknown(code);
  const points = score >= 80 ? 0 : score >= 70 ? -5 : score >= 50 ? -10 : -20;
  return { grade: { label: `Sender Score ${score}`, points, listed: false } };
}

/**
 * DNSWL's categories, the third octet of its answers (https://www.dnswl.org/?page_id=15): what
 * kind of sender an entry is.
 */
export const dnswlCategories: Readonly<Record<number, string>> = {
  2: 'financial services',
  3: 'email service provider',
  4: 'organisation',
  5: 'service or network provider',
  6: 'personal or private server',
  7: 'travel or leisure',
  8: 'public sector or government',
  9: 'media or tech company',
  10: 'special case',
  11: 'education or academic',
  12: 'healthcare',
  13: 'manufacturing or industrial',
  14: 'retail, wholesale or services',
  15: 'email marketing provider',
  20: 'added through self-service',
};

/**
 * DNSWL allowlist: 127.0.X.Y, X the category, Y the trust 0 (none) .. 3 (high). An allowlisting,
 * never a grade or a listing: return-codes.ts reads it with the allowlists.
 */
export function dnswlEntry(code: string): { entry: AllowlistEntry } | { error: string } {
  const trust = trustLevels[lastOctet(code)];
  if (!code.startsWith('127.0.') || trust === undefined) return unknown(code);
  const category = Number(code.split('.')[2]);
  const kind = dnswlCategories[category] ?? `category ${category}`;
  return { entry: { code, meaning: `${kind}, trust ${trust}`, trust } };
}

/** HostKarma: .1 white, .2 black, .3 yellow, .4 brown, .5 NOBL; 127.0.0.1 is NOT a listing here. */
function hostKarma(code: string): GradeReading {
  const grades: Record<string, Grade> = {
    '127.0.0.1': { label: 'white (trusted)', points: 3, listed: false },
    '127.0.0.2': { label: 'black (spam source)', points: -20, listed: true },
    '127.0.0.3': { label: 'yellow (mixed mail)', points: -5, listed: false },
    '127.0.0.4': { label: 'brown (mostly spam)', points: -10, listed: false },
    '127.0.0.5': { label: 'NOBL (not to be blocklisted)', points: 0, listed: false },
  };
  const grade = grades[code];
  return grade ? { grade } : unknown(code);
}

function unknown(code: string): { error: string } {
  return { error: `undocumented grade ${code}` };
}

/** The decoders of graded lists; DNSWL's scale is an allowlist's trust (`dnswlEntry`). */
export const gradeDecoders: Record<
  Exclude<GradeDecoder, 'dnswl'>,
  (code: string) => GradeReading
> = {
  'mailspike-rep': mailspikeRep,
  senderscore: senderScore,
  hostkarma: hostKarma,
};
