import { describe, expect, it } from 'vitest';
import { summariseDomain } from '../../../src/tools/domain/summary.js';
import { summariseIp } from '../../../src/tools/ip/summary.js';
import { summarisePool } from '../../../src/tools/pool/summary.js';

/** Stored results read as what their badge, card and page show. */

const pbl = {
  code: '127.0.0.10',
  meaning: 'PBL (ISP): end-user address',
  severity: 'info',
  weight: 5,
};
const sbl = { code: '127.0.0.2', meaning: 'SBL: spam source', severity: 'major', weight: 40 };
const zen = (listings: unknown[]) => ({
  zone: 'zen.spamhaus.org',
  name: 'Spamhaus ZEN',
  type: 'ip',
  severity: 'major',
  status: 'listed',
  listings,
});
const clean = (zone: string) => ({
  zone,
  name: zone,
  type: 'ip',
  severity: 'minor',
  status: 'clean',
});

function ipResult(lists: unknown[], verdict = 'good', score = 95) {
  return {
    kind: 'ipv4',
    target: '192.0.3.30',
    ip: '192.0.3.30',
    ptr: '',
    ip_score: {
      score,
      verdict,
      lists,
      rdns: { ptr: 'x.example', names: [], fcrdns: 'pass' },
      checked_at: '2026-01-01T00:00:00.000Z',
    },
  };
}

describe('summariseIp', () => {
  it('counts an informational-only listing (PBL) apart, so a good verdict reads without contradiction', () => {
    const summary = summariseIp(ipResult([zen([pbl]), clean('a'), clean('b')]));
    expect(summary).toMatchObject({ verdict: 'good', listed: 0, checked: 3 });
    expect(summary.coverage).toMatchObject({ blocking: 0, informational: 1, answered: 3 });
    expect(summary.listings).toEqual([
      {
        list: 'Spamhaus ZEN',
        detail: 'PBL (ISP): end-user address',
        severity: 'info',
        steps: [{ list: 'Spamhaus ZEN' }],
      },
    ]);
  });

  it("gives each listing its next step from the result's lookup and delisting pages", () => {
    const listed = {
      ...zen([sbl]),
      lookup_url: 'https://check.spamhaus.org/listed/?searchterm=192.0.3.30',
      delist_url: 'https://check.spamhaus.org/',
    };
    const summary = summariseIp(ipResult([listed, clean('a')], 'poor', 60));
    expect(summary.listings[0]?.steps).toEqual([
      {
        list: 'Spamhaus ZEN',
        lookupUrl: 'https://check.spamhaus.org/listed/?searchterm=192.0.3.30',
        delistUrl: 'https://check.spamhaus.org/',
      },
    ]);
  });

  it('counts a list on hold and one that timed out as not answered', () => {
    const summary = summariseIp(
      ipResult(
        [
          zen([sbl]),
          clean('a'),
          { ...clean('b'), status: 'timeout' },
          { ...clean('c'), status: 'timeout', on_hold: true },
        ],
        'poor',
        60,
      ),
    );
    expect(summary).toMatchObject({ listed: 1, checked: 2 });
    expect(summary.coverage).toMatchObject({ not_answered: 1, on_hold: 1, total: 4 });
  });
});

describe('summariseDomain', () => {
  it('keeps the listed sender addresses beside the domain lists', () => {
    const summary = summariseDomain({
      domain: 'example.com',
      domain_score: { score: 85, verdict: 'fair', lists: [clean('dbl'), clean('surbl')] },
      addresses: {
        checked: 3,
        listed: 1,
        results: [
          {
            ip: '192.0.3.20',
            listed: 1,
            verdict: 'poor',
            listings: [
              {
                zone: 'zen.spamhaus.org',
                name: 'Spamhaus ZEN',
                severity: 'major',
                detail: '',
                delist_url: 'https://check.spamhaus.org/',
              },
            ],
          },
        ],
      },
      checked_at: '2026-01-01T00:00:00.000Z',
    });
    expect(summary).toMatchObject({ listed: 0, checked: 2, addresses: { total: 3, listed: 1 } });
    expect(summary.listings).toEqual([
      {
        list: 'Sender IP 192.0.3.20',
        detail: 'listed on Spamhaus ZEN',
        severity: 'major',
        address: { ip: '192.0.3.20', sender: true, lists: ['Spamhaus ZEN'] },
        steps: [{ list: 'Spamhaus ZEN', delistUrl: 'https://check.spamhaus.org/' }],
      },
    ]);
  });
});

describe('summarisePool', () => {
  const address = (ip: string, listings: unknown[], answered = 18) => ({
    ip,
    verdict: 'good',
    listed: listings.length,
    answered,
    not_answered: 18 - answered,
    on_hold: 0,
    disabled: 0,
    total: 18,
    listings,
  });

  it('counts only blocklisted addresses as listed, and the lists of its least-answered address', () => {
    const summary = summarisePool({
      kind: 'check',
      pool: 'pool.example',
      checked: 3,
      listed: 2,
      details: [
        address('192.0.3.1', [{ zone: 'z', name: 'ZEN', severity: 'info', detail: 'PBL' }]),
        address('192.0.3.2', [{ zone: 'b', name: 'SpamCop', severity: 'major', detail: '' }], 17),
        address('192.0.3.3', []),
      ],
      checked_at: '2026-01-01T00:00:00.000Z',
    });
    expect(summary).toMatchObject({ verdict: 'fair', listed: 1, checked: 3 });
    expect(summary.coverage).toMatchObject({ answered: 17, not_answered: 1, total: 18 });
  });
});
