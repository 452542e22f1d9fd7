import { describe, expect, it } from 'vitest';
import { type Resolver, withBackOff } from '../../src/dns/index.js';

/** A resolver whose every query times out at once, counting what reaches it. */
function silentResolver(): Resolver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    query(name) {
      asked.push(name);
      return Promise.resolve({ status: 'timeout' } as const);
    },
  };
}

describe('the back-off of a resolver that answers nothing', () => {
  it('holds nothing for one silent list, even when its queries are the last a check waits for', async () => {
    const inner = silentResolver();
    let clock = 0;
    const resolver = withBackOff(inner, { now: () => clock });
    // Long past the last answer, 40 queries in a row to one list's zone all time out.
    clock = 10_000;
    for (let i = 0; i < 40; i++) {
      await resolver.query(`${i}.0.0.127.bl.silent-list.example`, 'A');
      clock += 100;
    }
    // Every one reached the wire: the resolver itself was never held.
    expect(inner.asked).toHaveLength(40);
  });

  it('holds the resolver once the failures in a row span several zones', async () => {
    const inner = silentResolver();
    let clock = 0;
    const reports: string[] = [];
    const resolver = withBackOff(inner, {
      now: () => clock,
      onReport: (report) => reports.push(report.kind),
    });
    clock = 10_000;
    for (let i = 0; i < 40; i++) {
      await resolver.query(`2.0.0.127.list-${i % 4}.example`, 'A');
      clock += 10;
    }
    // Eight reach the wire, then the hold answers at once until its first probe (1 s later).
    expect(inner.asked).toHaveLength(8);
    expect(reports).toEqual(['held']);
  });

  it('holds nothing for a burst of which the resolver drops a few and answers the rest', async () => {
    let clock = 10_000;
    const asked: string[] = [];
    const pending: { name: string; settle: () => void }[] = [];
    // Every fourth query is dropped (a timeout 3 s on); the others are answered NXDOMAIN at 50 ms.
    const inner: Resolver = {
      query(name) {
        asked.push(name);
        return new Promise((resolve) =>
          pending.push({
            name,
            settle: () =>
              resolve(
                asked.indexOf(name) % 4 === 0 ? { status: 'timeout' } : { status: 'nxdomain' },
              ),
          }),
        );
      },
    };
    const reports: string[] = [];
    const resolver = withBackOff(inner, {
      now: () => clock,
      onReport: (report) => reports.push(report.kind),
    });
    const burst = Array.from({ length: 160 }, (_, i) =>
      resolver.query(`x${i}.list-${i % 40}.example`, 'A'),
    );
    const settle = async (dropped: boolean) => {
      const due = pending.filter(({ name }) => (asked.indexOf(name) % 4 === 0) === dropped);
      for (const query of due) query.settle();
      await Promise.resolve();
    };
    clock += 50;
    await settle(false);
    clock += 3000;
    await settle(true);
    const outcomes = await Promise.all(burst);
    expect(outcomes.filter((outcome) => outcome.status === 'timeout')).toHaveLength(40);
    expect(reports).toEqual([]);
    // The next query reaches the wire: the resolver was never held.
    const next = resolver.query('2.0.0.127.list-1.example', 'A');
    pending.at(-1)?.settle();
    await next;
    expect(asked).toHaveLength(161);
  });

  it('still holds a resolver that stops answering after a burst it answered', async () => {
    let clock = 10_000;
    let answering = true;
    const asked: string[] = [];
    const inner: Resolver = {
      query(name) {
        asked.push(name);
        return Promise.resolve(answering ? { status: 'nxdomain' } : { status: 'timeout' });
      },
    };
    const reports: string[] = [];
    const resolver = withBackOff(inner, {
      now: () => clock,
      onReport: (report) => reports.push(report.kind),
    });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => resolver.query(`x${i}.list-${i % 4}.example`, 'A')),
    );
    answering = false;
    clock += 2000;
    for (let i = 0; i < 40; i++) {
      await resolver.query(`2.0.0.127.list-${i % 4}.example`, 'A');
      clock += 10;
    }
    expect(reports).toEqual(['held']);
    expect(asked).toHaveLength(28);
  });
});
