import { describe, expect, it } from 'vitest';
import {
  createDohTransport,
  fetchExchange,
  type UnreachableReport,
  withResolverStack,
} from '../../src/dns/index.js';

/**
 * A DoH endpoint that cannot be reached, inside workerd (docs/edge.md, "A resolver that cannot
 * be reached"): the resolver stack the zone monitor and every isolate use, its `fetch` pointed at
 * a closed port on 127.0.0.1, asked as the monitor's probes ask it (20 queries every 100 ms).
 * Each `fetch` that fails is a line of workerd's own log (`npm run dev:worker` without the
 * endpoint wrote a stack trace for each): once the resolver is held, one probe per back-off wait
 * reaches `fetch`, and the resolver's own report comes once per wait, with a count.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a DoH endpoint behind a closed port', () => {
  it('is fetched once per back-off wait once held, and reported once per wait', async () => {
    let fetches = 0;
    const transport = createDohTransport({
      endpoints: ['http://127.0.0.1:9/dns-query'],
      timeoutMs: 1000,
      retries: 1,
      exchange: fetchExchange((input, init) => {
        fetches++;
        return fetch(input, init);
      }),
    });
    const reports: UnreachableReport[] = [];
    const resolver = withResolverStack(transport, {
      maxInFlight: 16,
      onUnreachable: (report) => reports.push(report),
    });
    let asked = 0;
    let fetchesWhenHeld: number | undefined;
    const until = Date.now() + 6000;
    while (Date.now() < until) {
      // Names of several lists' zones, as a self-test asks: one silent zone alone holds nothing.
      const names = Array.from({ length: 20 }, () => `${asked}.list-${asked++ % 5}.example`);
      await Promise.all(names.map((name) => resolver.query(name, 'A', { bypassCache: true })));
      if (fetchesWhenHeld === undefined && reports.length > 0) fetchesWhenHeld = fetches;
      await sleep(100);
    }

    expect(reports[0]).toMatchObject({ kind: 'held' });
    // Held within its first 1.5 s; then probes after 1, 2 and 4 s, each of two attempts at most.
    expect(fetches - fetchesWhenHeld!).toBeLessThanOrEqual(6);
    expect(reports.length).toBeLessThanOrEqual(4);
    expect(reports.slice(1).every((report) => report.kind === 'still')).toBe(true);
    // Without the back-off every one of the queries asked would have been fetched twice.
    expect(fetches).toBeLessThan(asked / 2);
  }, 20_000);
});
