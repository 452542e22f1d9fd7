import { describe, expect, it } from 'vitest';
import type { TlsaLookup, TlsaOutcome } from '../../../src/dns/index.js';
import { checkDane } from '../../../src/reputation/mail/mx-check.js';

/**
 * How `checkDane` reads the AD bits it is given (docs/mail.md, "DANE"): the outcomes of a lookup
 * the test writes, name by name, and the names it was asked. The wire is tested elsewhere
 * (test/dns/tlsa.test.ts, test/tools/mail/dane.test.ts).
 */

const record = { usage: 3, selector: 1, matching_type: 1, data: 'ab' };

function scripted(answers: Record<string, TlsaOutcome>): { lookup: TlsaLookup; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    lookup: async (name) => {
      asked.push(name);
      return answers[name] ?? { status: 'servfail' };
    },
  };
}

const signal = new AbortController().signal;

describe('checkDane', () => {
  it('asks nothing more when a TLSA answer carries AD', async () => {
    const { lookup, asked } = scripted({
      '_25._tcp.a.example': { status: 'answer', records: [record], authenticated: true },
      '_25._tcp.b.example': { status: 'nodata', authenticated: false },
    });
    const dane = await checkDane(lookup, ['a.example', 'b.example'], signal);
    expect(dane).toMatchObject({ status: 'found', validating: true, detail: null });
    expect(asked).toEqual(['_25._tcp.a.example', '_25._tcp.b.example']);
  });

  it('asks the root when no answer carries AD: with AD there, the zones are not signed', async () => {
    const { lookup, asked } = scripted({
      '_25._tcp.a.example': { status: 'nxdomain', authenticated: false },
      '.': { status: 'nodata', authenticated: true },
    });
    const dane = await checkDane(lookup, ['a.example'], signal);
    expect(dane).toMatchObject({
      status: 'none',
      validating: true,
      detail: expect.stringMatching(/whose zones are not signed with DNSSEC/),
    });
    expect(asked).toEqual(['_25._tcp.a.example', '.']);
  });

  it.each<[string, TlsaOutcome]>([
    ['answers without AD', { status: 'nodata', authenticated: false }],
    ['fails', { status: 'servfail' }],
    ['times out', { status: 'timeout' }],
  ])('says the resolver does not validate when the root %s', async (_case, root) => {
    const { lookup } = scripted({
      '_25._tcp.a.example': { status: 'answer', records: [record], authenticated: false },
      '.': root,
    });
    expect(await checkDane(lookup, ['a.example'], signal)).toMatchObject({
      status: 'found',
      validating: false,
      detail: expect.stringMatching(/^the resolver does not validate DNSSEC/),
    });
  });

  it('asks no root and says nothing of validation when no TLSA lookup was answered', async () => {
    const { lookup, asked } = scripted({});
    expect(await checkDane(lookup, ['a.example'], signal)).toMatchObject({
      status: 'none',
      validating: null,
      hosts: [{ host: 'a.example', status: 'error', authenticated: null }],
    });
    expect(asked).toEqual(['_25._tcp.a.example']);
  });

  it('reports not_checked without a lookup', async () => {
    expect(await checkDane(undefined, ['a.example'], signal)).toMatchObject({
      status: 'not_checked',
      validating: null,
    });
  });
});
