import { describe, expect, it } from 'vitest';
import { dnswlEntry, type Grade, gradeDecoders } from '../../../src/reputation/lists/grades.js';
import { readAnswer } from '../../../src/reputation/lists/return-codes.js';
import {
  type DnsblZone,
  type GradeDecoder,
  loadZoneList,
} from '../../../src/reputation/lists/zones.js';

const zones = await loadZoneList();

function gradedZone(decoder: GradeDecoder): DnsblZone {
  const found = zones.find((zone) => zone.grade === decoder);
  if (!found) throw new Error(`no zone of the default list is graded by ${decoder}`);
  return found;
}

/** Reads `code` through the default list's zone of that scale, as the engine does. */
function gradeOf(decoder: GradeDecoder, code: string): Grade | undefined {
  const reading = readAnswer(gradedZone(decoder), [code]);
  return reading.status === 'listed' || reading.status === 'clean' ? reading.grade : undefined;
}

describe('the default list grades', () => {
  it.each([
    ['mailspike-rep', 'rep.mailspike.net'],
    ['senderscore', 'score.senderscore.com'],
    ['dnswl', 'list.dnswl.org'],
    ['hostkarma', 'hostkarma.junkemailfilter.com'],
  ] as const)('%s through %s', (decoder, zone) => {
    expect(gradedZone(decoder).zone).toBe(zone);
  });
});

describe('Mailspike reputation (rep.mailspike.net)', () => {
  it.each([
    ['127.0.0.10', 'poor reputation L5', -20],
    ['127.0.0.11', 'poor reputation L4', -15],
    ['127.0.0.12', 'poor reputation L3', -10],
    ['127.0.0.13', 'poor reputation L2', -5],
    ['127.0.0.14', 'poor reputation L1', -2],
    ['127.0.0.15', 'neutral reputation', 0],
    ['127.0.0.16', 'good reputation H1', 0],
    ['127.0.0.20', 'good reputation H5', 0],
  ])('reads %s as %s (%i points), never a listing', (code, label, points) => {
    expect(gradeOf('mailspike-rep', code)).toEqual({ label, points, listed: false });
  });

  it.each(['127.0.0.2', '127.0.0.9', '127.0.0.21', '127.0.1.10'])(
    'refuses %s as off the scale',
    (code) => {
      expect(gradeDecoders['mailspike-rep'](code)).toEqual({ error: `undocumented grade ${code}` });
    },
  );

  it('gives points that never rise as the level worsens', () => {
    const points = [20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10].map(
      (level) => gradeOf('mailspike-rep', `127.0.0.${level}`)?.points ?? NaN,
    );
    expect(points).toEqual([...points].sort((a, b) => b - a));
  });
});

describe('Validity Sender Score (score.senderscore.com)', () => {
  it.each([
    ['127.0.4.100', 0],
    ['127.0.4.80', 0],
    ['127.0.4.79', -5],
    ['127.0.4.70', -5],
    ['127.0.4.69', -10],
    ['127.0.4.50', -10],
    ['127.0.4.49', -20],
    ['127.0.4.0', -20],
  ])('reads %s as %i points, never a listing', (code, points) => {
    const score = code.split('.')[3];
    expect(gradeOf('senderscore', code)).toEqual({
      label: `Sender Score ${score}`,
      points,
      listed: false,
    });
  });

  it.each(['127.0.4.101', '127.0.4.255', '127.0.0.2', '127.0.3.50'])(
    'refuses %s as off the scale',
    (code) => {
      expect(gradeDecoders.senderscore(code)).toEqual({ error: `undocumented grade ${code}` });
    },
  );
});

describe('DNSWL (list.dnswl.org)', () => {
  it.each([
    ['127.0.15.0', 'email marketing provider, trust none', 'none'],
    ['127.0.2.1', 'financial services, trust low', 'low'],
    ['127.0.10.2', 'special case, trust medium', 'medium'],
    ['127.0.20.3', 'added through self-service, trust high', 'high'],
    ['127.0.99.3', 'category 99, trust high', 'high'],
  ] as const)(
    'reads %s as allowlisted (%s), never a grade or a listing',
    (code, meaning, trust) => {
      expect(readAnswer(gradedZone('dnswl'), [code])).toEqual({
        status: 'allowlisted',
        entries: [{ code, meaning, trust }],
        trust,
      });
    },
  );

  it.each(['127.0.10.4', '127.1.10.1'])('refuses %s as off the scale', (code) => {
    expect(dnswlEntry(code)).toEqual({ error: `undocumented grade ${code}` });
    expect(readAnswer(gradedZone('dnswl'), [code]).status).toBe('error');
  });

  it('reports 127.0.0.255 (querier blocked) as an error, not as a grade', () => {
    expect(readAnswer(gradedZone('dnswl'), ['127.0.0.255'])).toMatchObject({ status: 'error' });
  });
});

describe('HostKarma (hostkarma.junkemailfilter.com)', () => {
  it.each([
    ['127.0.0.1', 'white (trusted)', 3, false],
    ['127.0.0.2', 'black (spam source)', -20, true],
    ['127.0.0.3', 'yellow (mixed mail)', -5, false],
    ['127.0.0.4', 'brown (mostly spam)', -10, false],
    ['127.0.0.5', 'NOBL (not to be blocklisted)', 0, false],
  ])('reads %s as %s', (code, label, points, listed) => {
    expect(gradeDecoders.hostkarma(code)).toEqual({ grade: { label, points, listed } });
  });

  it('reads .1 (white) as clean: not a listing', () => {
    expect(readAnswer(gradedZone('hostkarma'), ['127.0.0.1'])).toMatchObject({ status: 'clean' });
  });

  it('reads .2 (black) as listed', () => {
    expect(readAnswer(gradedZone('hostkarma'), ['127.0.0.2'])).toMatchObject({ status: 'listed' });
  });

  it.each(['127.0.0.0', '127.0.0.6', '127.0.1.2'])('refuses %s as off the scale', (code) => {
    expect(gradeDecoders.hostkarma(code)).toEqual({ error: `undocumented grade ${code}` });
  });
});
