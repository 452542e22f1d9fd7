import { getEventListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withConcurrencyLimit } from '../../src/dns/concurrency.js';
import { createResolver } from '../../src/node/dns/index.js';
import type { DnsOutcome, Resolver } from '../../src/dns/resolver.js';
import { type FixtureDnsServer, startFixtureDnsServer } from '../../fixtures/dns-server.js';

/**
 * A resolver that counts the queries it is running and answers each one when the test releases
 * it, so the cap can be watched at every step.
 */
function countingResolver() {
  const pending: { name: string; answer: () => void; fail: () => void }[] = [];
  const state = { inFlight: 0, maxInFlight: 0, started: [] as string[] };
  const resolver: Resolver = {
    query(name) {
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      state.started.push(name);
      return new Promise((resolve, reject) => {
        const done = () => {
          state.inFlight--;
          pending.splice(pending.indexOf(entry), 1);
        };
        const entry = {
          name,
          answer: () => {
            done();
            resolve({ status: 'nxdomain' } as DnsOutcome<never>);
          },
          fail: () => {
            done();
            reject(new Error(`failed ${name}`));
          },
        };
        pending.push(entry);
      });
    },
  };
  return { resolver, state, pending };
}

/** Lets every settled promise run its continuations. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('withConcurrencyLimit', () => {
  it('never has more than N queries in flight, and runs them all', async () => {
    const { resolver, state, pending } = countingResolver();
    const limited = withConcurrencyLimit(resolver, 3);
    const queries = Array.from({ length: 10 }, (_, i) => limited.query(`q${i}.example`, 'A'));
    await settle();
    expect(state.inFlight).toBe(3);
    while (pending.length > 0) {
      pending[0]!.answer();
      await settle();
      expect(state.inFlight).toBeLessThanOrEqual(3);
    }
    expect(await Promise.all(queries)).toHaveLength(10);
    expect(state.maxInFlight).toBe(3);
    expect(state.started).toHaveLength(10);
  });

  it('starts waiting queries first in, first out', async () => {
    const { resolver, state, pending } = countingResolver();
    const limited = withConcurrencyLimit(resolver, 2);
    const queries = ['a', 'b', 'c', 'd', 'e'].map((name) => limited.query(name, 'A'));
    await settle();
    expect(state.started).toEqual(['a', 'b']);
    pending.find((entry) => entry.name === 'b')!.answer();
    await settle();
    expect(state.started).toEqual(['a', 'b', 'c']);
    while (pending.length > 0) {
      pending[0]!.answer();
      await settle();
    }
    await Promise.all(queries);
    expect(state.started).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('frees the slot of a query that threw', async () => {
    const { resolver, state, pending } = countingResolver();
    const limited = withConcurrencyLimit(resolver, 1);
    const failing = limited.query('bad', 'A');
    const next = limited.query('good', 'A');
    await settle();
    expect(state.started).toEqual(['bad']);
    pending[0]!.fail();
    await expect(failing).rejects.toThrow('failed bad');
    await settle();
    expect(state.started).toEqual(['bad', 'good']);
    pending[0]!.answer();
    expect(await next).toEqual({ status: 'nxdomain' });
  });

  it('lets queries through immediately while under the cap', async () => {
    const { resolver, state, pending } = countingResolver();
    const limited = withConcurrencyLimit(resolver, 5);
    const first = limited.query('one', 'A');
    await settle();
    pending[0]!.answer();
    await first;
    const later = Array.from({ length: 5 }, (_, i) => limited.query(`later${i}`, 'A'));
    await settle();
    // The finished query gave its slot back: all five fit.
    expect(state.inFlight).toBe(5);
    while (pending.length > 0) pending[0]!.answer();
    await Promise.all(later);
  });

  it('gives the slot back when the resolver throws instead of rejecting', async () => {
    let calls = 0;
    const throwing: Resolver = {
      query() {
        calls++;
        if (calls === 1) throw new Error('thrown');
        return Promise.resolve({ status: 'nxdomain' } as DnsOutcome<never>);
      },
    };
    const limited = withConcurrencyLimit(throwing, 1);
    await expect(limited.query('bad', 'A')).rejects.toThrow('thrown');
    // With the slot lost, this one would wait forever.
    expect(await limited.query('good', 'A')).toEqual({ status: 'nxdomain' });
  });
});

describe('withConcurrencyLimit, fair share between checks', () => {
  const flood = Symbol('flooding check');
  const ordinary = Symbol('ordinary check');

  it('keeps a check to its share, leaving slots free for a check that comes later', async () => {
    const { resolver, state, pending } = countingResolver();
    const limited = withConcurrencyLimit(resolver, 12, { minShare: 2 });
    const flooding = Array.from({ length: 100 }, (_, i) =>
      limited.query(`flood${i}.example`, 'A', { check: flood }),
    );
    await settle();
    // Alone, a check takes half the cap: 12 / (1 check + 1).
    expect(state.inFlight).toBe(6);
    const other = Array.from({ length: 3 }, (_, i) =>
      limited.query(`ordinary${i}.example`, 'A', { check: ordinary }),
    );
    await settle();
    // The newcomer starts at once, all three queries, while the flood keeps waiting.
    expect(state.started.filter((name) => name.startsWith('ordinary'))).toHaveLength(3);
    for (const entry of pending.filter((p) => p.name.startsWith('ordinary'))) entry.answer();
    expect(await Promise.all(other)).toHaveLength(3);
    while (pending.length > 0) {
      pending[0]!.answer();
      await settle();
    }
    expect(await Promise.all(flooding)).toHaveLength(100);
  });

  it('lets checks with waiting queries take turns when a slot frees', async () => {
    const { resolver, state, pending } = countingResolver();
    const limited = withConcurrencyLimit(resolver, 2, { minShare: 1 });
    const a = Symbol('a');
    const b = Symbol('b');
    const queries = [
      ...['a1', 'a2', 'a3', 'a4'].map((name) => limited.query(name, 'A', { check: a })),
      ...['b1', 'b2', 'b3'].map((name) => limited.query(name, 'A', { check: b })),
    ];
    await settle();
    expect(state.started).toEqual(['a1', 'b1']);
    while (pending.length > 0) {
      pending[0]!.answer();
      await settle();
    }
    await Promise.all(queries);
    // Each check's own queries in order; the two checks alternate.
    expect(state.started).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'b3', 'a4']);
  });

  it('takes a waiting query out of the queue when its signal aborts, answering timeout', async () => {
    const { resolver, state, pending } = countingResolver();
    const limited = withConcurrencyLimit(resolver, 1);
    const first = limited.query('first', 'A');
    const controller = new AbortController();
    const abandoned = limited.query('abandoned', 'A', { signal: controller.signal });
    const last = limited.query('last', 'A');
    await settle();
    controller.abort();
    expect(await abandoned).toEqual({ status: 'timeout' });
    pending[0]!.answer();
    await first;
    await settle();
    pending[0]!.answer();
    await last;
    expect(state.started).toEqual(['first', 'last']);
  });

  it('gives the slot of a query in flight back at once when its signal aborts', async () => {
    const { resolver, state, pending } = countingResolver();
    const limited = withConcurrencyLimit(resolver, 1);
    const controller = new AbortController();
    const stuck = limited.query('stuck', 'A', { signal: controller.signal });
    const next = limited.query('next', 'A');
    await settle();
    expect(state.started).toEqual(['stuck']);
    controller.abort();
    expect(await stuck).toEqual({ status: 'timeout' });
    await settle();
    // The transport never answered 'stuck', yet 'next' has its slot.
    expect(state.started).toEqual(['stuck', 'next']);
    pending.find((entry) => entry.name === 'next')!.answer();
    expect(await next).toEqual({ status: 'nxdomain' });
    // The late answer to the abandoned query frees nothing twice.
    pending.find((entry) => entry.name === 'stuck')!.answer();
    await settle();
    const again = limited.query('again', 'A');
    await settle();
    expect(state.started.at(-1)).toBe('again');
    pending.find((entry) => entry.name === 'again')!.answer();
    await again;
  });

  it('listens on a check’s signal once, however many of its queries wait or fly', async () => {
    const { resolver, pending } = countingResolver();
    const limited = withConcurrencyLimit(resolver, 4);
    const controller = new AbortController();
    const queries = Array.from({ length: 30 }, (_, i) =>
      limited.query(`q${i}`, 'A', { signal: controller.signal, check: Symbol.for('one') }),
    );
    await settle();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    while (pending.length > 0) {
      pending[0]!.answer();
      await settle();
    }
    await Promise.all(queries);
    // Every query settled: nothing is left listening.
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('answers a query whose signal has already aborted without asking', async () => {
    const { resolver, state } = countingResolver();
    const limited = withConcurrencyLimit(resolver, 4);
    expect(await limited.query('late', 'A', { signal: AbortSignal.abort() })).toEqual({
      status: 'timeout',
    });
    expect(state.started).toEqual([]);
  });
});

describe('withConcurrencyLimit on the wire', () => {
  let server: FixtureDnsServer;
  beforeAll(async () => {
    server = await startFixtureDnsServer({
      zones: [
        { origin: 'dropped.example', behaviour: 'drop' },
        { origin: 'answers.example', wildcard: { A: ['198.51.100.1'] } },
      ],
    });
  });
  afterAll(() => server.close());

  /** Asks `count` names under `zone` and says how long until all of them were answered. */
  async function timed(resolver: Resolver, zone: string, count: number, check?: symbol) {
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        resolver.query(`q${i}-${Math.random()}.${zone}`, 'A', check ? { check } : {}),
      ),
    );
    return { ms: performance.now() - started, outcomes };
  }

  it('answers an ordinary check at once beside a check whose 2,000 queries are never answered, and frees the flood’s slots at its deadline', async () => {
    const resolver = createResolver({ servers: [server.address], timeoutMs: 2000, retries: 0 });
    const deadline = new AbortController();
    const flooding = Symbol('flooding check');
    const flood = Array.from({ length: 2000 }, (_, i) =>
      resolver.query(`host${i}.dropped.example`, 'A', {
        check: flooding,
        signal: deadline.signal,
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));

    // With the 512 slots first come, first served, this would wait for the flood's timeouts.
    const ordinary = await timed(resolver, 'answers.example', 24, Symbol('ordinary check'));
    expect(ordinary.outcomes.every((outcome) => outcome.status === 'answer')).toBe(true);
    expect(ordinary.ms).toBeLessThan(500);

    deadline.abort();
    const abandoned = await Promise.all(flood);
    expect(abandoned.every((outcome) => outcome.status === 'timeout')).toBe(true);
    // The abandoned queries hold no slot any more: queries of no check, held by the global cap
    // alone, are answered at once.
    const after = await timed(resolver, 'answers.example', 50);
    expect(after.outcomes.every((outcome) => outcome.status === 'answer')).toBe(true);
    expect(after.ms).toBeLessThan(500);
  });
});
