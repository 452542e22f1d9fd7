import { describe, expect, it } from 'vitest';
import type { ListResult } from '../../src/reputation/results/result-schemas.js';
import {
  type Fact,
  type Known as KnownFacts,
  type ListFact,
  type Observation,
  observeIp,
  recordObservation,
  senderAddressGone,
} from '../../src/watch/kinds/index.js';

/**
 * Change detection, as tables: what moves between listed and not listed is a change; silence
 * (a timeout, a hold, a disabled list, an error) never is; the first check only records. The
 * tables write a watch's lists by zone (and a sender address's by address): the facts the merge
 * reads are made from them, and read back into them.
 */

/** What the watch knows of one list, by zone. */
type KnownList = Omit<ListFact['detail'], never> & {
  status: ListFact['value'];
  since?: string;
};
type KnownLists = Record<string, KnownList>;
interface Known {
  lists: KnownLists;
  addresses?: Record<string, KnownLists>;
}

const factsOf = (lists: KnownLists, address?: string): ListFact[] =>
  Object.entries(lists).map(([zone, { status, since, ...detail }]) => ({
    what: 'list',
    subject: zone,
    ...(address === undefined ? {} : { address }),
    value: status,
    detail,
    ...(since === undefined ? {} : { since }),
  }));

/** The facts of lists by zone and of sender addresses' lists by address. */
const known = ({ lists, addresses }: Known): KnownFacts => ({
  facts: [
    ...factsOf(lists),
    ...Object.entries(addresses ?? {}).flatMap(([address, each]) => factsOf(each, address)),
  ],
});

/** The list facts read back by zone, and by address. */
function listsOf(facts: readonly Fact[]): Known {
  const shown: Known = { lists: {} };
  for (const fact of facts) {
    if (fact.what !== 'list') continue;
    const list = {
      status: fact.value,
      ...fact.detail,
      ...(fact.since ? { since: fact.since } : {}),
    };
    if (fact.address === undefined) shown.lists[fact.subject] = list;
    else ((shown.addresses ??= {})[fact.address] ??= {})[fact.subject] = list;
  }
  return shown;
}

const listed = (name: string, code = '127.0.0.2', meaning = 'spam source'): KnownList => ({
  status: 'listed',
  name,
  codes: [code],
  meaning,
});
const clean = (name: string): KnownList => ({ status: 'not_listed', name });

/** A check that heard these lists (and, for a domain, these sender addresses' lists). */
const heard = (lists: KnownLists, addresses?: Record<string, KnownLists>): Observation => ({
  facts: known({ lists, ...(addresses ? { addresses } : {}) }).facts,
  ...(addresses ? { gone: senderAddressGone(Object.keys(addresses)) } : {}),
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
    const { change } = recordObservation(known({ lists: before }), heard(now));
    expect(change.added.map((item) => item.zone)).toEqual(added);
    expect(change.removed.map((item) => item.zone)).toEqual(removed);
  });

  it('keeps a silent list’s last known status, so its later answer is compared with it', () => {
    const first = recordObservation(known({ lists: { [zen]: listed('ZEN') } }), heard({}));
    expect(listsOf(first.known.facts).lists[zen]?.status).toBe('listed');
    const later = recordObservation(first.known, heard({ [zen]: clean('ZEN') }));
    expect(later.change.removed.map((item) => item.zone)).toEqual([zen]);
  });

  it('records the first check and reports nothing, listings included', () => {
    const first = recordObservation(undefined, heard({ [zen]: listed('ZEN') }));
    expect(first.change).toEqual({ added: [], removed: [] });
    expect(listsOf(first.known.facts).lists[zen]?.status).toBe('listed');
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
    const { change } = recordObservation(known(before), heard({ [zen]: clean('ZEN') }));
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
    const { change } = recordObservation(known({ lists: {}, addresses: before }), heard({}, now));
    const named = (items: typeof change.added) =>
      items.map((item) => `${item.address} ${item.zone}`);
    expect(named(change.added)).toEqual(added);
    expect(named(change.removed)).toEqual(removed);
  });

  it('forgets an address no longer checked, and keeps the lists of one that fell silent', () => {
    const after = recordObservation(
      known({
        lists: {},
        addresses: { [ip]: { [spamcop]: listed('SpamCop') }, [other]: { [zen]: clean('ZEN') } },
      }),
      heard({}, { [ip]: {} }),
    );
    expect(listsOf(after.known.facts).addresses).toEqual({
      [ip]: { [spamcop]: listed('SpamCop') },
    });
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
    expect(listsOf(observation.facts).lists).toEqual({
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
    let now = known(start);
    return observations.map((observation) => {
      const step = recordObservation(now, observation, confirmations);
      now = step.known;
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
      known({ lists: {}, addresses: { '192.0.2.1': { [zen]: clean('ZEN') } } }),
      heard({}, { '192.0.2.1': { [zen]: listed('ZEN') } }),
      2,
    );
    // Kept by its fact's key (the list, for the sender address), never a string read back.
    expect(first.known.unconfirmed).toEqual([
      { what: 'list', subject: zen, address: '192.0.2.1', value: 'listed', seen: 1 },
    ]);
    expect(recordObservation(first.known, heard({}, {}), 2).known.unconfirmed).toBeUndefined();
  });
});
