import { describe, expect, it } from 'vitest';
import { readAnswer } from '../../../src/reputation/lists/return-codes.js';
import {
  type DnsblZone,
  loadZoneList,
  parseZoneList,
} from '../../../src/reputation/lists/zones.js';

/** The tables run over the real default zone list, so a wrong code table fails here. */
const zones = await loadZoneList();

function zone(name: string): DnsblZone {
  const found = zones.find((candidate) => candidate.zone === name);
  if (!found) throw new Error(`${name} is not in the default zone list`);
  return found;
}

describe('readAnswer: listings', () => {
  it.each([
    ['zen.spamhaus.org', '127.0.0.2', 'SBL', 'major', 40],
    ['zen.spamhaus.org', '127.0.0.3', 'SBL CSS', 'major', 40],
    ['zen.spamhaus.org', '127.0.0.4', 'XBL', 'major', 40],
    ['zen.spamhaus.org', '127.0.0.9', 'DROP', 'major', 40],
    ['zen.spamhaus.org', '127.0.0.10', 'PBL (ISP)', 'info', 5],
    ['zen.spamhaus.org', '127.0.0.11', 'PBL (Spamhaus)', 'info', 5],
    ['b.barracudacentral.org', '127.0.0.2', 'poor reputation', 'major', 30],
    ['bl.spamcop.net', '127.0.0.2', 'SpamCop', 'major', 30],
    ['bl.mailspike.net', '127.0.0.11', 'L4', 'minor', 12],
    ['all.spamrats.com', '127.0.0.36', 'RATS-Dyna', 'info', 3],
    ['all.spamrats.com', '127.0.0.38', 'RATS-Spam', 'minor', 10],
    ['dnsbl.dronebl.org', '127.0.0.255', 'uncategorized', 'minor', 10],
    ['dnsbl.dronebl.org', '127.0.0.12', 'open DNS resolver', 'info', 2],
    ['ips.backscatterer.org', '127.0.0.2', 'bounces', 'info', 3],
    ['dbl.spamhaus.org', '127.0.1.2', 'spam', 'major', 35],
    ['dbl.spamhaus.org', '127.0.1.4', 'phishing', 'major', 35],
    ['dbl.spamhaus.org', '127.0.1.102', 'abused legitimate', 'minor', 10],
    ['dbl.0spam.org', '127.0.0.2', '0spam', 'minor', 10],
  ] as const)('reads %s %s as a listing (%s)', (zoneName, code, meaning, severity, weight) => {
    const reading = readAnswer(zone(zoneName), [code]);
    // Spamhaus PBL is a policy listing (the zone list's `kind`): an address that should send
    // through its provider's relay, not a spam source.
    const policy = meaning.startsWith('PBL') ? { policy: true } : {};
    expect(reading).toEqual({
      status: 'listed',
      listings: [{ code, meaning: expect.stringContaining(meaning), severity, weight, ...policy }],
    });
  });

  it('reads every documented code of a multi-code answer as its own listing', () => {
    const reading = readAnswer(zone('zen.spamhaus.org'), ['127.0.0.2', '127.0.0.4', '127.0.0.10']);
    expect(reading.status === 'listed' && reading.listings.map((l) => l.code)).toEqual([
      '127.0.0.2',
      '127.0.0.4',
      '127.0.0.10',
    ]);
  });

  it('keeps a documented listing when an undocumented code comes beside it', () => {
    const reading = readAnswer(zone('zen.spamhaus.org'), ['127.0.0.2', '127.0.0.99']);
    expect(reading).toMatchObject({ status: 'listed', listings: [{ code: '127.0.0.2' }] });
  });

  it('reads no code at all as clean', () => {
    expect(readAnswer(zone('zen.spamhaus.org'), [])).toEqual({ status: 'clean' });
  });
});

describe('readAnswer: answers that are errors, never listings', () => {
  it.each([
    ['zen.spamhaus.org', '127.255.255.252', /typing error/],
    ['zen.spamhaus.org', '127.255.255.254', /public\/open resolver/],
    ['zen.spamhaus.org', '127.255.255.255', /excessive number of queries/],
    ['dbl.spamhaus.org', '127.255.255.254', /public\/open resolver/],
    ['dbl.spamhaus.org', '127.0.1.255', /IP address queried on a domain list/],
    ['multi.uribl.com', '127.0.0.1', /query refused/],
    ['multi.surbl.org', '127.0.0.1', /blocked/],
    ['list.dnswl.org', '127.0.0.255', /querier blocked/],
    ['score.senderscore.com', '127.255.255.255', /not authorized/],
    // A zone that does not document 127.255.255.x still never lists with it.
    ['b.barracudacentral.org', '127.255.255.254', /refused the query/],
  ])('reports a %s %s answer as an error', (zoneName, code, error) => {
    expect(readAnswer(zone(zoneName), [code])).toEqual({
      status: 'error',
      error: expect.stringMatching(error),
    });
  });

  it('reports a Spamhaus 127.255.255.254 answer as an error even beside a listing code', () => {
    const reading = readAnswer(zone('zen.spamhaus.org'), ['127.0.0.2', '127.255.255.254']);
    expect(reading.status).toBe('error');
  });

  it.each([
    ['zen.spamhaus.org', '127.0.0.1'],
    ['b.barracudacentral.org', '127.0.0.1'],
    ['bl.spamcop.net', '127.0.0.1'],
    ['psbl.surriel.com', '127.0.0.1'],
    ['dbl.spamhaus.org', '127.0.0.1'],
  ])('reports %s answering 127.0.0.1 as an error (RFC 5782 §5: never listed)', (zoneName) => {
    expect(readAnswer(zone(zoneName), ['127.0.0.1'])).toEqual({
      status: 'error',
      error: 'undocumented return code 127.0.0.1',
    });
  });

  it.each([
    ['zen.spamhaus.org', '127.0.0.5'],
    ['zen.spamhaus.org', '127.0.1.2'],
    ['bl.spamcop.net', '127.0.0.3'],
    ['dbl.spamhaus.org', '127.0.0.2'],
    ['all.spamrats.com', '127.0.0.2'],
  ])('reports the undocumented code %s %s as an error', (zoneName, code) => {
    expect(readAnswer(zone(zoneName), [code])).toEqual({
      status: 'error',
      error: `undocumented return code ${code}`,
    });
  });

  it.each([
    ['zen.spamhaus.org', ['10.0.0.1']],
    ['zen.spamhaus.org', ['127.0.0.2', '192.0.2.1']],
    ['multi.uribl.com', ['198.51.100.5']],
    ['list.dnswl.org', ['0.0.0.0']],
    ['hostkarma.junkemailfilter.com', ['8.8.8.8']],
  ])('reports a %s answer outside 127/8 (%j) as an error: the resolver rewrites', (name, codes) => {
    expect(readAnswer(zone(name), codes)).toEqual({
      status: 'error',
      error: expect.stringContaining('outside 127.0.0.0/8'),
    });
  });
});

describe('readAnswer: SURBL and URIBL bitmasks', () => {
  it.each([
    ['multi.surbl.org', '127.0.0.8', ['PH: phishing site']],
    ['multi.surbl.org', '127.0.0.16', ['MW: malware site']],
    ['multi.surbl.org', '127.0.0.72', ['PH: phishing site', 'ABUSE: spam and other abuse site']],
    [
      'multi.surbl.org',
      '127.0.0.216',
      [
        'PH: phishing site',
        'MW: malware site',
        'ABUSE: spam and other abuse site',
        'CR: cracked (compromised legitimate) site',
      ],
    ],
    ['multi.uribl.com', '127.0.0.2', ['black: domain owned or used by spammers']],
    [
      'multi.uribl.com',
      '127.0.0.14',
      [
        'black: domain owned or used by spammers',
        'grey: bulk sender domain, may honour opt-out',
        'red: young or privacy-protected domain active in mail flow',
      ],
    ],
  ])('reads %s %s as one listing per bit', (zoneName, code, meanings) => {
    const reading = readAnswer(zone(zoneName), [code]);
    expect(reading.status).toBe('listed');
    expect(reading.status === 'listed' && reading.listings.map((l) => l.meaning)).toEqual(meanings);
  });

  it('gives each bit its own severity and weight', () => {
    expect(readAnswer(zone('multi.uribl.com'), ['127.0.0.12'])).toEqual({
      status: 'listed',
      listings: [
        {
          code: '127.0.0.12',
          meaning: expect.stringMatching(/^grey/),
          severity: 'info',
          weight: 3,
        },
        {
          code: '127.0.0.12',
          meaning: expect.stringMatching(/^red/),
          severity: 'minor',
          weight: 10,
        },
      ],
    });
  });

  it.each([
    ['multi.uribl.com', '127.0.0.16', 'an undocumented bit'],
    ['multi.uribl.com', '127.0.0.3', 'the refusal bit beside black'],
    ['multi.uribl.com', '127.1.0.2', 'a code outside 127.0.0.0/24'],
    ['multi.surbl.org', '127.0.0.2', 'the retired SC bit'],
    ['multi.surbl.org', '127.0.0.65', 'the blocked bit beside ABUSE'],
    ['multi.surbl.org', '127.0.0.0', 'no bit at all'],
  ])('reports %s %s (%s) as an undocumented code, not a listing', (zoneName, code) => {
    expect(readAnswer(zone(zoneName), [code])).toEqual({
      status: 'error',
      error: `undocumented return code ${code}`,
    });
  });
});

describe('readAnswer: graded lists', () => {
  it('reads a graded answer as a grade, not as a listing', () => {
    expect(readAnswer(zone('score.senderscore.com'), ['127.0.4.55'])).toEqual({
      status: 'clean',
      grade: { label: 'Sender Score 55', points: -10, listed: false },
    });
  });

  it('reads HostKarma 127.0.0.1 as white, not as a listing and not as an error', () => {
    expect(readAnswer(zone('hostkarma.junkemailfilter.com'), ['127.0.0.1'])).toEqual({
      status: 'clean',
      grade: { label: 'white (trusted)', points: 3, listed: false },
    });
  });

  it('reads HostKarma 127.0.0.2 (black) as a listing with its grade', () => {
    expect(readAnswer(zone('hostkarma.junkemailfilter.com'), ['127.0.0.2'])).toEqual({
      status: 'listed',
      listings: [
        { code: '127.0.0.2', meaning: 'black (spam source)', severity: 'info', weight: 0 },
      ],
      grade: { label: 'black (spam source)', points: -20, listed: true },
    });
  });

  it('takes the first valid grade when a graded list adds other records', () => {
    expect(readAnswer(zone('hostkarma.junkemailfilter.com'), ['127.0.0.3', '127.0.1.1'])).toEqual({
      status: 'clean',
      grade: { label: 'yellow (mixed mail)', points: -5, listed: false },
    });
  });

  it.each([
    ['rep.mailspike.net', '127.0.0.9'],
    ['rep.mailspike.net', '127.0.0.21'],
    ['score.senderscore.com', '127.0.4.101'],
    ['score.senderscore.com', '127.0.3.50'],
    ['list.dnswl.org', '127.0.5.4'],
    ['hostkarma.junkemailfilter.com', '127.0.0.6'],
  ])('reports the undocumented grade %s %s as an error', (zoneName, code) => {
    expect(readAnswer(zone(zoneName), [code])).toEqual({
      status: 'error',
      error: `undocumented grade ${code}`,
    });
  });
});

describe('readAnswer: allowlists', () => {
  it('reads an allowlist hit as allowlisted with its trust level, never as a listing', () => {
    expect(readAnswer(zone('wl.mailspike.net'), ['127.0.0.20'])).toEqual({
      status: 'allowlisted',
      entries: [{ code: '127.0.0.20', meaning: 'H5: excellent reputation', trust: 'high' }],
      trust: 'high',
    });
  });

  it('names every fact an allowlist answers with, as IADB answers several, and keeps the highest trust', () => {
    const reading = readAnswer(zone('iadb.isipp.com'), ['127.0.0.1', '127.3.100.10']);
    expect(reading).toMatchObject({
      status: 'allowlisted',
      entries: [
        { code: '127.0.0.1', trust: 'low' },
        { code: '127.3.100.10', meaning: expect.stringContaining('confirmed (double) opt-in') },
      ],
    });
    expect(reading.status === 'allowlisted' && reading.trust).toBe(
      zone('iadb.isipp.com').codes?.['127.3.100.10']?.trust,
    );
  });

  it('trusts none where an allowlist of another zone list gives its code no trust level', () => {
    const [custom] = parseZoneList([
      { zone: 'wl.example.org', type: 'ip', name: 'Example WL', severity: 'info', allowlist: true },
    ]);
    expect(readAnswer(custom!, ['127.0.0.2'])).toEqual({
      status: 'allowlisted',
      entries: [{ code: '127.0.0.2', meaning: 'listed (127.0.0.2)', trust: 'none' }],
      trust: 'none',
    });
  });

  it('reads a code an allowlist does not document as an error, not as vouching', () => {
    expect(readAnswer(zone('wl.mailspike.net'), ['127.0.0.3'])).toEqual({
      status: 'error',
      error: 'undocumented return code 127.0.0.3',
    });
  });
});

describe('a zone without a code table', () => {
  const [zone] = parseZoneList([
    { zone: 'bl.other-list.net', type: 'ip', name: 'Other', severity: 'major' },
  ]);

  it.each(['127.0.0.2', '127.0.0.3', '127.0.0.254'])(
    'reads %s as a listing (RFC 5782 §2.1)',
    (code) => {
      expect(readAnswer(zone!, [code])).toMatchObject({
        status: 'listed',
        listings: [{ code, severity: 'major', weight: 30 }],
      });
    },
  );

  it.each(['127.0.0.1', '127.0.1.2', '127.255.255.254', '10.0.0.2'])(
    'reads %s as an error, not a listing',
    (code) => {
      expect(readAnswer(zone!, [code]).status).toBe('error');
    },
  );
});
