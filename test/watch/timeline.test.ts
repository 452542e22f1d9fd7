import { describe, expect, it } from 'vitest';
import {
  dayStrip,
  lastedMs,
  listingStart,
  listingSteps,
  type SinceFact,
  stampSince,
  withSince,
} from '../../src/watch/timeline/index.js';

/** src/watch/timeline/: "listed since", the steps of the chart and the days of the strip. */

/** A list as the tables write it: its status, and any other field its fact carries. */
type List = { status: 'listed' | 'not_listed'; since?: string; name?: string };
interface Lists {
  lists: Record<string, List>;
  addresses?: Record<string, Record<string, List>>;
}

/** The list facts of lists by zone, and of sender addresses' lists by address. */
function factsOf({ lists, addresses }: Lists): SinceFact[] {
  const of = (each: Record<string, List>, address?: string) =>
    Object.entries(each).map(([zone, { status, ...rest }]) => ({
      what: 'list',
      subject: zone,
      ...(address === undefined ? {} : { address }),
      value: status,
      ...rest,
    }));
  return [
    ...of(lists),
    ...Object.entries(addresses ?? {}).flatMap(([address, each]) => of(each, address)),
  ];
}

/** The facts read back by zone, and by address. */
function listsOf(facts: readonly SinceFact[]): Lists {
  const shown: Lists = { lists: {} };
  for (const { what: _what, subject, address, value, ...rest } of facts) {
    const list = { status: value as List['status'], ...rest };
    if (address === undefined) shown.lists[subject] = list;
    else ((shown.addresses ??= {})[address] ??= {})[subject] = list;
  }
  return shown;
}

/** stampSince over lists written as the tables write them. */
const stamp = (previous: Lists | undefined, known: Lists, at: string) =>
  listsOf(stampSince(previous && factsOf(previous), factsOf(known), at));

const zen = { zone: 'zen.spamhaus.org' };
const sbl = { zone: 'sbl.example' };

describe('stampSince', () => {
  const at = '2026-11-02T10:00:00.000Z';
  const earlier = '2026-11-01T10:00:00.000Z';

  it('stamps a listing first recorded now with now', () => {
    const known = { lists: { a: { status: 'listed' as const, name: 'A' } } };
    expect(stamp(undefined, known, at).lists.a).toEqual({
      status: 'listed',
      name: 'A',
      since: at,
    });
  });

  it('keeps the time of a listing that lasts, and forgets it once delisted', () => {
    const previous = {
      lists: {
        a: { status: 'listed' as const, since: earlier },
        b: { status: 'listed' as const, since: earlier },
      },
    };
    const known = {
      lists: { a: { status: 'listed' as const }, b: { status: 'not_listed' as const } },
    };
    expect(stamp(previous, known, at).lists).toEqual({
      a: { status: 'listed', since: earlier },
      b: { status: 'not_listed' },
    });
  });

  it('leaves a listing stored before `since` was kept without one: its start is unknown', () => {
    const previous = { lists: { a: { status: 'listed' as const } } };
    const known = { lists: { a: { status: 'listed' as const } } };
    expect(stamp(previous, known, at).lists.a).toEqual({ status: 'listed' });
  });

  it('stamps a sender address’s listings by address, and keeps other fields', () => {
    const previous = {
      lists: {},
      addresses: { '192.0.2.1': { a: { status: 'listed' as const, since: earlier } } },
    };
    const known = {
      lists: {},
      addresses: {
        '192.0.2.1': { a: { status: 'listed' as const } },
        '192.0.2.2': { a: { status: 'listed' as const, name: 'A' } },
      },
    };
    const stamped = stamp(previous, known, at);
    expect(stamped.addresses).toEqual({
      '192.0.2.1': { a: { status: 'listed', since: earlier } },
      '192.0.2.2': { a: { status: 'listed', name: 'A', since: at } },
    });
  });

  it('gives each listing of a status its time, where known', () => {
    const known = {
      lists: { a: { status: 'listed' as const, since: earlier }, b: { status: 'listed' as const } },
      addresses: { '192.0.2.1': { c: { status: 'listed' as const, since: at } } },
    };
    expect(
      withSince(
        [{ zone: 'a' }, { zone: 'b' }, { zone: 'c', address: '192.0.2.1' }],
        factsOf(known),
      ),
    ).toEqual([
      { zone: 'a', since: earlier },
      { zone: 'b' },
      { zone: 'c', address: '192.0.2.1', since: at },
    ]);
  });
});

describe('listingSteps', () => {
  const start = '2026-11-01T00:00:00.000Z';

  it('is one flat step with no history', () => {
    expect(listingSteps([], [], start)).toEqual([{ at: start, count: 0 }]);
    expect(listingSteps([zen], [], start)).toEqual([{ at: start, count: 1 }]);
  });

  it('reads the count before each change back from now, oldest first', () => {
    const history = [
      { at: '2026-11-03T00:00:00.000Z', added: [], removed: [zen] },
      { at: '2026-11-02T12:00:00.000Z', added: [sbl], removed: [] },
      { at: '2026-11-02T00:00:00.000Z', added: [zen], removed: [] },
    ];
    expect(listingSteps([sbl], history, start)).toEqual([
      { at: start, count: 0 },
      { at: '2026-11-02T00:00:00.000Z', count: 1 },
      { at: '2026-11-02T12:00:00.000Z', count: 2 },
      { at: '2026-11-03T00:00:00.000Z', count: 1 },
    ]);
  });

  it('counts the same list on two sender addresses twice', () => {
    const history = [
      {
        at: '2026-11-02T00:00:00.000Z',
        added: [
          { ...zen, address: '192.0.2.1' },
          { ...zen, address: '192.0.2.2' },
        ],
        removed: [],
      },
    ];
    const now = [
      { ...zen, address: '192.0.2.1' },
      { ...zen, address: '192.0.2.2' },
    ];
    expect(listingSteps(now, history, start).map((step) => step.count)).toEqual([0, 2]);
  });
});

describe('dayStrip', () => {
  it('marks days before the watch began as none, and a clean watch’s days clean', () => {
    const strip = dayStrip(
      [{ at: '2026-11-28T10:00:00.000Z', count: 0 }],
      '2026-11-30T09:00:00.000Z',
    );
    expect(strip).toHaveLength(30);
    expect(strip.slice(0, 27).every((day) => day === 'none')).toBe(true);
    expect(strip.slice(27)).toEqual(['clean', 'clean', 'clean']);
  });

  it('marks a day listed when the target was listed at any moment of it', () => {
    const steps = [
      { at: '2026-10-01T00:00:00.000Z', count: 0 },
      // Listed for an hour on 20 November, then from 29 November on.
      { at: '2026-11-20T05:00:00.000Z', count: 1 },
      { at: '2026-11-20T06:00:00.000Z', count: 0 },
      { at: '2026-11-29T23:59:00.000Z', count: 2 },
    ];
    const strip = dayStrip(steps, '2026-11-30T09:00:00.000Z');
    // The strip runs 1 to 30 November.
    expect(strip[19]).toBe('listed');
    expect(strip[18]).toBe('clean');
    expect(strip[20]).toBe('clean');
    expect(strip[28]).toBe('listed');
    expect(strip[29]).toBe('listed');
    expect(strip.filter((day) => day === 'listed')).toHaveLength(3);
  });
});

describe('how long a listing lasted', () => {
  const zen = { zone: 'zen.spamhaus.org' };
  const sender = { zone: 'zen.spamhaus.org', address: '192.0.2.7' };
  // Newest first: listed on the 3rd, delisted on the 5th, listed again on the 10th, delisted on the 12th.
  const history = [
    { at: '2026-11-12T00:00:00.000Z', added: [], removed: [zen] },
    { at: '2026-11-10T00:00:00.000Z', added: [zen], removed: [] },
    { at: '2026-11-05T00:00:00.000Z', added: [], removed: [zen, sender] },
    { at: '2026-11-03T00:00:00.000Z', added: [zen], removed: [] },
  ];

  it.each([
    [
      'the entry that added it, the newest before its delisting',
      zen,
      '2026-11-12T00:00:00.000Z',
      '2026-11-10T00:00:00.000Z',
    ],
    [
      'the earlier listing, for the earlier delisting',
      zen,
      '2026-11-05T00:00:00.000Z',
      '2026-11-03T00:00:00.000Z',
    ],
    [
      'the first check, for a listing no entry added (a sender address’s, another key)',
      sender,
      '2026-11-05T00:00:00.000Z',
      '2026-11-01T00:00:00.000Z',
    ],
  ] as const)('begins at %s', (_what, listing, endedAt, start) => {
    expect(listingStart(history, listing, endedAt, '2026-11-01T00:00:00.000Z')).toBe(start);
  });

  it('is unknown when the history cannot tell: no first check given, or an earlier delisting with no listing after it', () => {
    expect(listingStart(history, sender, '2026-11-05T00:00:00.000Z')).toBeUndefined();
    const lost = [history[0]!, history[2]!];
    expect(
      listingStart(lost, zen, '2026-11-12T00:00:00.000Z', '2026-11-01T00:00:00.000Z'),
    ).toBeUndefined();
    expect(lastedMs('2026-11-10T00:00:00.000Z', '2026-11-12T00:00:00.000Z')).toBe(2 * 86_400_000);
  });
});
