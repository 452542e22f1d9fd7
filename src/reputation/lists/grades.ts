import type { GradeDecoder } from './zones.js';
import type { Grade } from '../results/index.js';

/**
 * Reputation lists answer with a grade, not a yes/no listing. Each decoder reads one list's
 * documented scale into points added to (or taken off) the score. Only HostKarma's "black" grade is
 * also a listing; the others are grades whatever their value.
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

/** DNSWL allowlist: 127.0.X.Y, Y the trust level 0 (none) .. 3 (high). */
function dnswl(code: string): GradeReading {
  const trust = lastOctet(code);
  if (!code.startsWith('127.0.') || trust > 3) return unknown(code);
  const names = ['none', 'low', 'medium', 'high'];
  return {
    grade: {
      label: `allowlisted, trust ${names[trust]}`,
      points: [0, 1, 3, 5][trust] ?? 0,
      listed: false,
    },
  };
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

function unknown(code: string): GradeReading {
  return { error: `undocumented grade ${code}` };
}

export const gradeDecoders: Record<GradeDecoder, (code: string) => GradeReading> = {
  'mailspike-rep': mailspikeRep,
  senderscore: senderScore,
  dnswl,
  hostkarma: hostKarma,
};
