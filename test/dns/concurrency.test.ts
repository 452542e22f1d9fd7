import { describe, expect, it } from 'vitest';
import { withConcurrencyLimit } from '../../src/dns/concurrency.js';
import type { DnsOutcome, Resolver } from '../../src/dns/resolver.js';

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
