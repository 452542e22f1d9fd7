import { describe, expect, it } from 'vitest';
import type { ListResult } from '../../src/reputation/results/result-schemas.js';
import { type Known, recordObservation } from '../../src/watch/changes.js';
import { observeIp, type Observation } from '../../src/watch/observation.js';
import type { KnownList, KnownLists } from '../../src/watch/schemas.js';

/**
 * Change detection, as tables: what moves between listed and not listed is a change; silence
 * (a timeout, a hold, a disabled list, an error) never is; the first check only records.
 */

const listed = (name: string, code = '127.0.0.2', meaning = 'spam source'): KnownList => ({
  status: 'listed',
  name,
  codes: [code],
  meaning,
});
const clean = (name: string): KnownList => ({ status: 'not_listed', name });

const heard = (lists: KnownLists, addresses?: Record<string, KnownLists>): Observation => ({
  lists,
  ...(addresses ? { addresses } : {}),
  status: { verdict: 'good', score: 100, listed_on: [], lists: [] },
});

const zen = 'zen.spamhaus.org';
const spamcop = 'bl.spamcop.net';

describe('a watch’s lists from one check to the next', () => {
  it.each<[string, KnownLists, KnownLists, string[], string[]]>([
    [
      'a list that lists the target now',
      { [zen]: clean('ZEN') },
      { [zen]: listed('ZEN') },
      [zen],
      [],
    ],
    [
      'a list that no longer lists it',
      { [zen]: listed('ZEN') },
      { [zen]: clean('ZEN') },
      [],
      [zen],
    ],
    [
      'a list still listing it',
      { [zen]: listed('ZEN') },
      { [zen]: listed('ZEN', '127.0.0.3') },
      [],
      [],
    ],
    ['a list still not listing it', { [zen]: clean('ZEN') }, { [zen]: clean('ZEN') }, [], []],
    ['a listed list that fell silent', { [zen]: listed('ZEN') }, {}, [], []],
    ['a clean list that fell silent', { [zen]: clean('ZEN') }, {}, [], []],
    ['a list first heard listing it', {}, { [zen]: listed('ZEN') }, [zen], []],
    ['a list first heard not listing it', {}, { [zen]: clean('ZEN') }, [], []],
    [
      'one list listing and another delisting',
      { [zen]: clean('ZEN'), [spamcop]: listed('SpamCop') },
      { [zen]: listed('ZEN'), [spamcop]: clean('SpamCop') },
      [zen],
      [spamcop],
    ],
  ])('%s', (_, before, now, added, removed) => {
    const { change } = recordObservation({ lists: before }, heard(now));
    expect(change.added.map((item) => item.zone)).toEqual(added);
    expect(change.removed.map((item) => item.zone)).toEqual(removed);
  });

  it('keeps a silent list’s last known status, so its later answer is compared with it', () => {
    const first = recordObservation({ lists: { [zen]: listed('ZEN') } }, heard({}));
    expect(first.known.lists[zen]?.status).toBe('listed');
    const later = recordObservation(first.known, heard({ [zen]: clean('ZEN') }));
    expect(later.change.removed.map((item) => item.zone)).toEqual([zen]);
  });

  it('records the first check and reports nothing, listings included', () => {
    const { known, change } = recordObservation(undefined, heard({ [zen]: listed('ZEN') }));
    expect(change).toEqual({ added: [], removed: [] });
    expect(known.lists[zen]?.status).toBe('listed');
  });

  it('describes a removed listing by what it was: its codes, meaning and delisting form', () => {
    const before: Known = {
      lists: {
        [zen]: {
          ...listed('ZEN', '127.0.0.4', 'XBL: exploited'),
          delist_url: 'https://check.spamhaus.org/',
        },
      },
    };
    const { change } = recordObservation(before, heard({ [zen]: clean('ZEN') }));
    expect(change.removed).toEqual([
      {
        zone: zen,
        name: 'ZEN',
        code: '127.0.0.4',
        meaning: 'XBL: exploited',
        delist_url: 'https://check.spamhaus.org/',
      },
    ]);
  });
});

describe('a domain watch’s sender addresses', () => {
  const ip = '192.0.3.10';
  const other = '192.0.3.11';

  it.each<[string, Record<string, KnownLists>, Record<string, KnownLists>, string[], string[]]>([
    [
      'an address listed now',
      { [ip]: { [spamcop]: clean('SpamCop') } },
      { [ip]: { [spamcop]: listed('SpamCop') } },
      [`${ip} ${spamcop}`],
      [],
    ],
    [
      'an address delisted',
      { [ip]: { [spamcop]: listed('SpamCop') } },
      { [ip]: { [spamcop]: clean('SpamCop') } },
      [],
      [`${ip} ${spamcop}`],
    ],
    [
      'an address whose lists fell silent',
      { [ip]: { [spamcop]: listed('SpamCop') } },
      { [ip]: {} },
      [],
      [],
    ],
    ['a listed address no longer checked', { [ip]: { [spamcop]: listed('SpamCop') } }, {}, [], []],
    [
      'a new sender address already listed',
      { [ip]: { [spamcop]: clean('SpamCop') } },
      { [ip]: { [spamcop]: clean('SpamCop') }, [other]: { [spamcop]: listed('SpamCop') } },
      [`${other} ${spamcop}`],
      [],
    ],
  ])('%s', (_, before, now, added, removed) => {
    const { change } = recordObservation({ lists: {}, addresses: before }, heard({}, now));
    const named = (items: typeof change.added) =>
      items.map((item) => `${item.address} ${item.zone}`);
    expect(named(change.added)).toEqual(added);
    expect(named(change.removed)).toEqual(removed);
  });

  it('forgets an address no longer checked, and keeps the lists of one that fell silent', () => {
    const { known } = recordObservation(
      {
        lists: {},
        addresses: { [ip]: { [spamcop]: listed('SpamCop') }, [other]: { [zen]: clean('ZEN') } },
      },
      heard({}, { [ip]: {} }),
    );
    expect(known.addresses).toEqual({ [ip]: { [spamcop]: listed('SpamCop') } });
  });
});

describe('what a check heard', () => {
  const list = (
    zone: string,
    status: ListResult['status'],
    extra: Partial<ListResult> = {},
  ): ListResult => ({
    zone,
    name: zone,
    type: 'ip',
    severity: 'major',
    status,
    ...extra,
  });

  it('takes listed, clean and allowlisted lists, and leaves out every list that said nothing', () => {
    const observation = observeIp({
      kind: 'ipv4',
      target: '8.8.100.7',
      ip: '8.8.100.7',
      ptr: '',
      ip_score: {
        score: 60,
        verdict: 'poor',
        confidence: 'medium',
        factors: [],
        listed: 1,
        allowlisted: 1,
        answered: 3,
        not_answered: 2,
        on_hold: 1,
        disabled: 1,
        needs_key: 0,
        not_covered: 0,
        total: 7,
        summary: '',
        lists: [
          list('a.example', 'listed', {
            codes: ['127.0.0.2'],
            listings: [{ code: '127.0.0.2', meaning: 'spam', severity: 'major', weight: 40 }],
            delist_url: 'https://a.example/delist',
          }),
          list('b.example', 'clean'),
          list('c.example', 'timeout', { error: 'no answer in time' }),
          list('d.example', 'timeout', { on_hold: true }),
          list('e.example', 'error', { codes: ['127.255.255.254'] }),
          list('f.example', 'disabled', { error: 'failed its self-test' }),
          list('g.example', 'allowlisted', { trust: 'high' }),
        ],
        rdns: { ptr: '', names: [], fcrdns: 'none', confirmed: [] },
        checked_at: '2026-05-10T12:00:00.000Z',
      },
    });
    expect(observation.lists).toEqual({
      'a.example': {
        status: 'listed',
        name: 'a.example',
        codes: ['127.0.0.2'],
        meaning: 'spam',
        delist_url: 'https://a.example/delist',
      },
      'b.example': { status: 'not_listed', name: 'b.example' },
      // An allowlist that vouches for the address does not list it: a change of trust is no listing.
      'g.example': { status: 'not_listed', name: 'g.example' },
    });
    expect(observation.status).toMatchObject({
      verdict: 'poor',
      score: 60,
      listed_on: [{ zone: 'a.example', name: 'a.example' }],
    });
    expect(observation.status.lists).toHaveLength(7);
  });
});

describe('confirmed changes', () => {
  /** Runs the observations in order from `start`, answering the changes each one reported. */
  function run(start: Known, observations: Observation[], confirmations: number) {
    let known = start;
    return observations.map((observation) => {
      const step = recordObservation(known, observation, confirmations);
      known = step.known;
      return [...step.change.added, ...step.change.removed].map((item) => item.zone);
    });
  }

  it('reports a change once it was heard by that many checks in a row', () => {
    const reports = run(
      { lists: { [zen]: clean('ZEN') } },
      [
        heard({ [zen]: listed('ZEN') }),
        heard({ [zen]: listed('ZEN') }),
        heard({ [zen]: listed('ZEN') }),
      ],
      3,
    );
    expect(reports).toEqual([[], [], [zen]]);
  });

  it('forgets a change that flipped back before it was confirmed', () => {
    const reports = run(
      { lists: { [zen]: clean('ZEN') } },
      [
        heard({ [zen]: listed('ZEN') }),
        heard({ [zen]: clean('ZEN') }),
        heard({ [zen]: listed('ZEN') }),
      ],
      2,
    );
    expect(reports).toEqual([[], [], []]);
  });

  it('keeps the count over a check the list was silent in', () => {
    const reports = run(
      { lists: { [zen]: listed('ZEN') } },
      [heard({ [zen]: clean('ZEN') }), heard({}), heard({ [zen]: clean('ZEN') })],
      2,
    );
    expect(reports).toEqual([[], [], [zen]]);
  });

  it('confirms a list first heard listing the target, and a sender address’s listing', () => {
    const reports = run(
      { lists: {}, addresses: { '192.0.2.1': { [zen]: clean('ZEN') } } },
      [
        heard({ [spamcop]: listed('SpamCop') }, { '192.0.2.1': { [zen]: listed('ZEN') } }),
        heard({ [spamcop]: listed('SpamCop') }, { '192.0.2.1': { [zen]: listed('ZEN') } }),
      ],
      2,
    );
    expect(reports).toEqual([[], [spamcop, zen]]);
  });

  it('drops the unconfirmed changes of a sender address no longer checked', () => {
    const first = recordObservation(
      { lists: {}, addresses: { '192.0.2.1': { [zen]: clean('ZEN') } } },
      heard({}, { '192.0.2.1': { [zen]: listed('ZEN') } }),
      2,
    );
    expect(first.known.unconfirmed).toEqual({
      [`192.0.2.1 ${zen}`]: { status: 'listed', seen: 1 },
    });
    expect(recordObservation(first.known, heard({}, {}), 2).known.unconfirmed).toBeUndefined();
  });
});
