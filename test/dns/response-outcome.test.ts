import { describe, expect, it } from 'vitest';
import { outcomeOf } from '../../src/dns/response-outcome.js';
import type { AnswerRecord, DecodedResponse } from '../../src/dns/wire.js';
import { MalformedMessageError } from '../../src/dns/wire.js';

/**
 * What a decoded response means for the question asked: RCODEs, CNAME chains as c-ares followed
 * them, TTLs, and the records a hostile server slips in about other names.
 */

const question = { name: 'www.example.org', type: 'A' };

function decoded(answers: AnswerRecord[], changes: Partial<DecodedResponse> = {}): DecodedResponse {
  return { id: 0, rcode: 0, truncated: false, questions: [question], answers, ...changes };
}

const a = (name: string, data: string, ttl = 300): AnswerRecord => ({ name, type: 'A', ttl, data });
const cname = (name: string, data: string, ttl = 300): AnswerRecord => ({
  name,
  type: 'CNAME',
  ttl,
  data,
});

describe('outcomeOf, RCODEs', () => {
  it.each([
    [3, 'nxdomain'],
    [2, 'servfail'],
    [5, 'refused'],
    // FORMERR and NOTIMP are server failures, as the c-ares transport reported them.
    [1, 'servfail'],
    [4, 'servfail'],
  ])('maps RCODE %i to %s', (rcode, status) => {
    expect(outcomeOf(decoded([], { rcode }), 'www.example.org', 'A')).toEqual({ status });
  });

  it('reports NOERROR without records of the type as nodata', () => {
    expect(outcomeOf(decoded([]), 'www.example.org', 'A')).toEqual({ status: 'nodata' });
  });
});

describe('outcomeOf, CNAME chains', () => {
  it('follows the chain to its end and reports the least TTL along it', () => {
    const outcome = outcomeOf(
      decoded([
        a('host.hosting.test', '192.0.2.7', 600),
        cname('www.example.org', 'web.example.org', 900),
        cname('web.example.org', 'host.hosting.test', 45),
      ]),
      'www.example.org',
      'A',
    );
    expect(outcome).toEqual({ status: 'answer', records: ['192.0.2.7'], ttl: 45 });
  });

  it('ignores records about names outside the chain', () => {
    const outcome = outcomeOf(
      decoded([
        a('www.example.org', '192.0.2.1'),
        a('bank.example.net', '198.51.100.66'),
        a('www.example.org', '192.0.2.2'),
      ]),
      'www.example.org',
      'A',
    );
    expect(outcome).toEqual({ status: 'answer', records: ['192.0.2.1', '192.0.2.2'], ttl: 300 });
  });

  it('ignores records owned by the alias itself once it points elsewhere', () => {
    const outcome = outcomeOf(
      decoded([cname('www.example.org', 'web.example.org'), a('www.example.org', '192.0.2.1')]),
      'www.example.org',
      'A',
    );
    expect(outcome).toEqual({ status: 'nodata' });
  });

  it('reports a chain that ends without records of the type as nodata', () => {
    expect(
      outcomeOf(decoded([cname('www.example.org', 'web.example.org')]), 'www.example.org', 'A'),
    ).toEqual({ status: 'nodata' });
  });

  it('answers a CNAME question with the alias, not what it points to', () => {
    const outcome = outcomeOf(
      decoded(
        [cname('www.example.org', 'web.example.org', 60), a('web.example.org', '192.0.2.1')],
        {
          questions: [{ name: 'www.example.org', type: 'CNAME' }],
        },
      ),
      'www.example.org',
      'CNAME',
    );
    expect(outcome).toEqual({ status: 'answer', records: ['web.example.org'], ttl: 60 });
  });

  it('throws MalformedMessageError for a CNAME loop inside the answer', () => {
    const loop = decoded([
      cname('www.example.org', 'web.example.org'),
      cname('web.example.org', 'www.example.org'),
    ]);
    expect(() => outcomeOf(loop, 'www.example.org', 'A')).toThrow(MalformedMessageError);
  });
});

describe('outcomeOf, responses to another query', () => {
  it.each<[string, Partial<DecodedResponse>]>([
    ['another ID', { id: 4242 }],
    ['another name', { questions: [{ name: 'mail.example.org', type: 'A' }] }],
    ['another type', { questions: [{ name: 'www.example.org', type: 'TXT' }] }],
    ['two questions', { questions: [question, { name: 'mail.example.org', type: 'A' }] }],
    ['the TC bit', { truncated: true }],
  ])('throws MalformedMessageError for a response with %s', (_, changes) => {
    expect(() =>
      outcomeOf(decoded([a('www.example.org', '192.0.2.1')], changes), 'www.example.org', 'A'),
    ).toThrow(MalformedMessageError);
  });

  it('accepts a response that echoes no question (HTTP already pairs it with the query)', () => {
    const outcome = outcomeOf(
      decoded([a('www.example.org', '192.0.2.1')], { questions: [] }),
      'www.example.org',
      'A',
    );
    expect(outcome).toMatchObject({ status: 'answer', records: ['192.0.2.1'] });
  });
});
