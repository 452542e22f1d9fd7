import { readConfig } from '../src/node/config.js';
import { createNodeServices } from '../src/node/services.js';
import { benchAddress } from './addresses.js';
import { startBenchDns } from './dns-fixture.js';

/**
 * How late watches are checked (docs/watches.md, "Runner"): 1,000 watches of addresses with
 * reverse DNS, every one re-checked every WATCH_LAG_INTERVAL_S (10 s: 100 checks a second, far
 * more than 1,000 watches at the 900 s minimum ask), on the Node services with their timer, over
 * the fixture DNS world in a worker thread. The lag is how long after its due time a check
 * started, and the check's time how long its look-ups took, as the runner logs them (`watch
 * checked`, `lag_ms` and `check_ms`, at LOG_LEVEL=debug). Run with `npx tsx bench/watch-lag.ts [memory:|sqlite:PATH]`;
 * not part of `npm run bench`.
 */

const watchCount = 1000;
const intervalS = Number(process.env.WATCH_LAG_INTERVAL_S ?? 10);
const rounds = Number(process.env.WATCH_LAG_ROUNDS ?? 3);
const storeUrl = process.argv[2] ?? 'memory:';

const dns = await startBenchDns({
  addressCount: watchCount,
  ipv6AddressCount: 0,
  listings: {},
  latencyMs: 0,
});
/** Each check's lag, from the runner's own `watch checked` lines (LOG_LEVEL=debug). */
const lags: number[] = [];
const checkTimes: number[] = [];
let measuring = false;
const services = await createNodeServices(
  readConfig({
    DNS_SERVERS: dns.address,
    STORE_URL: storeUrl,
    LOG_LEVEL: 'debug',
    WATCH_MIN_INTERVAL_S: '1',
    WATCH_PER_CALLER: String(watchCount),
    WATCH_MAX: String(watchCount),
  }),
  (line) => {
    const entry = JSON.parse(line) as {
      msg: string;
      lag_ms?: number;
      check_ms?: number;
      level: string;
    };
    if (entry.msg === 'watch checked' && measuring) {
      lags.push(entry.lag_ms!);
      checkTimes.push(entry.check_ms!);
    } else if (entry.level === 'error') process.stdout.write(`${line}\n`);
  },
);
const { watches } = services;

const ids: string[] = [];
// Created 50 at a time over about the first interval, so their due times spread as real ones do.
for (let i = 0; i < watchCount; i += 50) {
  const batch = await Promise.all(
    Array.from({ length: 50 }, (_, j) =>
      watches.create({ target: benchAddress(i + j), interval_s: intervalS, subject: 'bench' }),
    ),
  );
  for (const outcome of batch) {
    if (!outcome.ok) throw new Error(outcome.reason);
    ids.push(outcome.watch.id);
  }
  await new Promise((resolve) => setTimeout(resolve, (intervalS * 1000 * 50) / watchCount));
}

lags.length = 0;
measuring = true;
await new Promise((resolve) => setTimeout(resolve, rounds * intervalS * 1000));
measuring = false;
await services.close();
await dns.close();

lags.sort((a, b) => a - b);
checkTimes.sort((a, b) => a - b);
const quantiles = (values: number[]) => {
  const at = (share: number) =>
    values[Math.min(values.length - 1, Math.floor(share * values.length))];
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: values.at(-1) };
};
console.log(
  JSON.stringify({
    store: storeUrl,
    watches: watchCount,
    intervalS,
    checks: lags.length,
    lagMs: quantiles(lags),
    checkMs: quantiles(checkTimes),
  }),
);
