import { describe, expect, it } from 'vitest';
import { isSpecialUseName, specialUseSuffix } from '../../src/lib/special-use-names.js';

/** The names never asked about, wherever they come from: RFC 6761's and their kin. */

describe('isSpecialUseName', () => {
  it.each([
    'localhost',
    'db.localhost',
    'kubernetes.default.svc.cluster.local',
    'metadata.google.internal',
    'router.home.arpa',
    '10.in-addr.arpa',
    'x.onion',
    'mailhost',
  ])('counts %s as special-use: never asked', (name) => {
    expect(isSpecialUseName(name)).toBe(true);
  });

  it.each(['example.com', 'vault.corp.example-internal.com', 'local.example.net', 'internal.co'])(
    'counts %s as public',
    (name) => {
      expect(isSpecialUseName(name)).toBe(false);
    },
  );
});

describe('specialUseSuffix', () => {
  it.each([
    ['mail.corp', 'corp'],
    ['home.arpa', 'home.arpa'],
    ['router.home.arpa', 'home.arpa'],
    ['example.com', undefined],
    ['notlocal', undefined],
  ])('names the suffix %s lies under: %s', (name, suffix) => {
    expect(specialUseSuffix(name)).toBe(suffix);
  });
});
