import { describe, expect, it } from 'vitest';
import { certificateNamesCover } from '../../src/lib/index.js';

describe('certificateNamesCover (RFC 6125 §6.4)', () => {
  it('matches a name exactly, without case or a final dot', () => {
    expect(certificateNamesCover(['MX.Example.com.'], 'mx.example.com')).toBe(true);
    expect(certificateNamesCover(['mx.example.com'], 'mx2.example.com')).toBe(false);
    expect(certificateNamesCover([], 'mx.example.com')).toBe(false);
  });

  it('takes a wildcard as the whole left-most label, standing for exactly one label', () => {
    expect(certificateNamesCover(['*.example.com'], 'mx.example.com')).toBe(true);
    expect(certificateNamesCover(['*.example.com'], 'a.mx.example.com')).toBe(false);
    expect(certificateNamesCover(['*.example.com'], 'example.com')).toBe(false);
  });

  it('refuses partial wildcards, wildcards elsewhere and wildcards over one label', () => {
    expect(certificateNamesCover(['mx*.example.com'], 'mx1.example.com')).toBe(false);
    expect(certificateNamesCover(['mx.*.com'], 'mx.example.com')).toBe(false);
    expect(certificateNamesCover(['*.com'], 'example.com')).toBe(false);
    expect(certificateNamesCover(['*'], 'localhost')).toBe(false);
  });
});
