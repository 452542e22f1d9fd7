import { describe, expect, it } from 'vitest';
import { isDmarcRecord, readDmarcRecord } from '../../../src/reputation/checks/dmarc-record.js';
import { dmarcDisagreements, dmarcVectors } from '../../fixtures/peers/dmarc-records.js';

/** The policy a receiver applies to the domain itself: none for a record it discards. */
function appliedPolicy(record: string) {
  return isDmarcRecord(record) ? readDmarcRecord(record).p : null;
}

describe('DMARC records the peers read alike (checkdmarc, mailauth)', () => {
  it.each(dmarcVectors.map((vector) => [vector.record, vector] as const))(
    'reads %j as the peers do',
    (record, vector) => {
      expect(appliedPolicy(record)).toBe(vector.policy);
      if (vector.tags) expect(readDmarcRecord(record)).toMatchObject(vector.tags);
    },
  );
});

describe('DMARC records the peers read differently, read by RFC 7489', () => {
  it.each(dmarcDisagreements.map((case_) => [case_.record, case_] as const))(
    'reads %j by the RFC',
    (record, case_) => {
      expect(appliedPolicy(record)).toBe(case_.policy);
    },
  );
});

describe('readDmarcRecord (RFC 7489 §6.3, §6.4, §6.6.3)', () => {
  it('reads every tag, with the defaults of those absent', () => {
    expect(
      readDmarcRecord(
        'v=DMARC1; p=reject; rua=mailto:d@example.com,mailto:x@thirdparty.example.net!10m',
      ),
    ).toEqual({
      valid: true,
      p: 'reject',
      sp: null,
      pct: 100,
      rua: ['mailto:d@example.com', 'mailto:x@thirdparty.example.net!10m'],
      ruf: [],
      adkim: 'r',
      aspf: 'r',
      fo: ['0'],
      rf: ['afrf'],
      ri: 86_400,
      errors: [],
      warnings: [],
      written: { p: 'reject', sp: null },
    });
  });

  it('reads fo, rf and ri, and white space around the commas of rua (*WSP "," *WSP)', () => {
    expect(
      readDmarcRecord(
        'v=DMARC1; p=none; fo=d : s; rf=afrf; ri=3600; rua=mailto:a@example.com ,\tmailto:b@example.com',
      ),
    ).toMatchObject({
      valid: true,
      fo: ['d', 's'],
      rf: ['afrf'],
      ri: 3600,
      rua: ['mailto:a@example.com', 'mailto:b@example.com'],
    });
  });

  it('says so when it reads a record without p as p=none for its valid rua', () => {
    expect(readDmarcRecord('v=DMARC1; rua=mailto:d@example.com')).toMatchObject({
      valid: true,
      p: 'none',
      errors: [],
      warnings: [
        'no p= tag: receivers read the record as p=none, since rua is valid (RFC 7489 §6.6.3)',
      ],
    });
  });

  it('applies no policy for a record without p and without a valid rua', () => {
    expect(readDmarcRecord('v=DMARC1; sp=reject')).toMatchObject({
      valid: false,
      p: null,
      errors: ['no p= tag, and no valid rua: receivers apply no DMARC (RFC 7489 §6.6.3)'],
    });
  });

  it.each([
    ['v=DMARC1; p=reject; pct=150', 'pct=150 is not an integer from 0 to 100'],
    ['v=DMARC1; p=reject; adkim=x', 'adkim=x is not r or s'],
    ['v=DMARC1; p=reject; aspf=relaxed', 'aspf=relaxed is not r or s'],
    ['v=DMARC1; p=reject; fo=2', 'fo=2 is not a colon-separated list of 0, 1, d and s'],
    ['v=DMARC1; p=reject; rf=a f', 'rf=a f is not a colon-separated list of report formats'],
    ['v=DMARC1; p=reject; ri=-1', 'ri=-1 is not a number of seconds'],
    [
      'v=DMARC1; p=reject; ruf=forensic@example.com',
      'ruf: "forensic@example.com" is not a URI (RFC 7489 §6.4)',
    ],
    ['v=DMARC1; p=reject; p=none', 'the tag p appears twice'],
    ['v=DMARC1; P=reject; p=none', 'the tag p appears twice'],
    ['p=reject; v=DMARC1', 'the record does not start with v=DMARC1 (RFC 7489 §6.4)'],
  ])('reads %j as a record no receiver applies: %s', (record, error) => {
    expect(readDmarcRecord(record)).toMatchObject({ valid: false, p: null, errors: [error] });
  });

  it('names the tags it ignores', () => {
    expect(readDmarcRecord('v=DMARC1; p=reject; np=quarantine; xyz=1').warnings).toEqual([
      'unknown tags ignored (RFC 7489 §6.3): np, xyz',
    ]);
  });

  it('reads a record whose white space is tabs, as the DNS server sent it', () => {
    expect(readDmarcRecord('v=DMARC1;\tp=quarantine;\tsp=reject')).toMatchObject({
      valid: true,
      p: 'quarantine',
      sp: 'reject',
    });
  });
});
