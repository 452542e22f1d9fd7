import { describe, expect, it } from 'vitest';
import { applicableDmarc, organizationalDomain } from '../../../src/reputation/checks/dmarc.js';

describe('organizationalDomain', () => {
  it.each([
    ['mail.example.com', 'example.com'],
    ['example.com', 'example.com'],
    ['a.b.example.co.uk', 'example.co.uk'],
    // A private registry of the Public Suffix List: each site is its own organisation.
    ['blog.alice.github.io', 'alice.github.io'],
    ['xn--e1afmkfd.xn--p1ai', 'xn--e1afmkfd.xn--p1ai'],
    ['co.uk', null],
  ])('finds the organisational domain of %s: %s', (name, organizational) => {
    expect(organizationalDomain(name)).toBe(organizational);
  });
});

describe('applicableDmarc', () => {
  const found = (record: string) => ({ kind: 'found' as const, record });

  const shown = (...args: Parameters<typeof applicableDmarc>) => applicableDmarc(...args).shown;

  it('applies the domain own record when it has one, with its p tag', () => {
    expect(
      shown('mail.example.com', found('v=DMARC1; p=reject; sp=none'), {
        domain: 'example.com',
        lookup: found('v=DMARC1; p=none'),
      }),
    ).toEqual({
      status: 'found',
      present: true,
      record: 'v=DMARC1; p=reject; sp=none',
      policy: 'reject',
      applied: 'domain',
      domain: 'mail.example.com',
      errors: [],
      warnings: [],
    });
  });

  it('applies the organisational domain record to a subdomain without one, with its sp tag (RFC 7489 §6.3)', () => {
    expect(
      shown(
        'mail.example.com',
        { kind: 'none' },
        {
          domain: 'example.com',
          lookup: found('v=DMARC1; p=reject; sp=quarantine'),
        },
      ),
    ).toEqual({
      status: 'found',
      present: true,
      record: 'v=DMARC1; p=reject; sp=quarantine',
      policy: 'quarantine',
      applied: 'organizational',
      domain: 'example.com',
      errors: [],
      warnings: [],
    });
  });

  it('takes p for the subdomain when the organisational record has no sp tag', () => {
    const dmarc = shown(
      'mail.example.com',
      { kind: 'none' },
      {
        domain: 'example.com',
        lookup: found('v=DMARC1; p=reject'),
      },
    );
    expect(dmarc).toMatchObject({ policy: 'reject', applied: 'organizational' });
  });

  it.each([
    ['several records at the domain (§6.6.3 step 5)', { kind: 'multiple' as const }, 'multiple'],
    ['a failed lookup at the domain', { kind: 'unavailable' as const }, 'unavailable'],
  ])('does not fall back to the organisational domain on %s', (_, own, status) => {
    expect(
      shown('mail.example.com', own, {
        domain: 'example.com',
        lookup: found('v=DMARC1; p=reject'),
      }),
    ).toEqual({
      status,
      present: false,
      record: null,
      policy: null,
      applied: null,
      domain: null,
      errors: [],
      warnings: [],
    });
  });

  it('reports none when neither has a record', () => {
    expect(
      shown(
        'mail.example.com',
        { kind: 'none' },
        { domain: 'example.com', lookup: { kind: 'none' } },
      ),
    ).toMatchObject({ status: 'none', present: false, applied: null });
  });

  it('shows at most 2,048 characters of a record', () => {
    const record = `v=DMARC1; p=reject; rua=mailto:${'a'.repeat(5000)}@example.com`;
    const dmarc = shown('example.com', found(record), null);
    expect(dmarc.record).toHaveLength(2048);
    expect(dmarc.policy).toBe('reject');
  });
});

describe('a record receivers do not apply', () => {
  const found = (record: string) => ({ kind: 'found' as const, record });

  it('is the domain’s record all the same: invalid, no policy, no fall back to the organisational domain', () => {
    expect(
      applicableDmarc('mail.example.com', found('v=DMARC1; p=reject; p=none'), {
        domain: 'example.com',
        lookup: found('v=DMARC1; p=none'),
      }).shown,
    ).toMatchObject({
      status: 'invalid',
      present: true,
      policy: null,
      applied: 'domain',
      errors: ['the tag p appears twice'],
    });
  });

  it('reads an organisational record’s invalid sp as RFC 7489 §6.6.3 says: p=none with a valid rua', () => {
    expect(
      applicableDmarc(
        'mail.example.com',
        { kind: 'none' },
        {
          domain: 'example.com',
          lookup: found('v=DMARC1; p=reject; sp=never; rua=mailto:d@example.com'),
        },
      ).shown,
    ).toMatchObject({ status: 'found', policy: 'none', applied: 'organizational' });
  });
});
