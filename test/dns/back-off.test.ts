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
});
