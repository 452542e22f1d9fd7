import { createInterface } from 'node:readline';
import { runPool } from '../stats.js';
import { checkWithinTimeout, openBareCheck } from './bare-check.js';

/**
 * The trickling section's bare client (bare-check.ts) in a process of its own, so its CPU is read
 * as the service's is: the process's, every thread, without the bench's fixture, forwarder or load
 * generator. Arguments: the DNS server and a JSON array of the IP zones, then one of the test
 * entries' names. Each line on stdin, `{"addresses": [...], "concurrency": n}`, is a run: the
 * checks, `concurrency` at a time, answered by one line on stdout, `{"done", "failed", "ms"}`.
 * Ends when stdin closes.
 */

const [server = '', zonesJson = '[]', entriesJson = '[]'] = process.argv.slice(2);
const bare = await openBareCheck(
  server,
  JSON.parse(zonesJson) as string[],
  JSON.parse(entriesJson) as string[],
);
const checkWithin = (address: string) => checkWithinTimeout(bare, address);

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const { addresses, concurrency } = JSON.parse(line) as {
    addresses: string[];
    concurrency: number;
  };
  const run = await runPool(addresses, concurrency, 600_000, checkWithin);
  process.stdout.write(`${JSON.stringify({ done: run.done, failed: run.failed, ms: run.ms })}\n`);
}
bare.close();
