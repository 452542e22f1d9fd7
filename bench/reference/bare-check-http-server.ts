import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { checkWithinTimeout, openBareCheck } from './bare-check.js';

/**
 * The bare client (bare-check.ts) behind a bare node:http server, no framework: the least any
 * service that answers an IP check over HTTP does, for `bench/experiments/trickle-ab.ts`'s
 * `TRICKLE_BARE_HTTP=1` side. A POST of `{"target": address}` runs the bare check and answers
 * what the bench's client reads (bench/ip-checks.ts): a token, the score's counts and each list's
 * status. Arguments as bare-check-process.ts's; prints its port once listening.
 */

const [server = '', zonesJson = '[]', entriesJson = '[]'] = process.argv.slice(2);
const zones = JSON.parse(zonesJson) as string[];
const bare = await openBareCheck(server, zones, JSON.parse(entriesJson) as string[]);

function answer(address: string, clean: boolean): string {
  return JSON.stringify({
    token: randomUUID(),
    from_cache: false,
    target: address,
    ip_score: {
      answered: clean ? zones.length : 0,
      total: zones.length,
      needs_key: 0,
      listed: 0,
      rdns: { fcrdns: clean ? 'pass' : 'fail' },
    },
    lists: zones.map((zone) => ({ zone, status: clean ? 'not_listed' : 'error' })),
  });
}

const http = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const { target } = JSON.parse(Buffer.concat(chunks).toString()) as { target: string };
    void checkWithinTimeout(bare, target).then((clean) => {
      response
        .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
        .end(answer(target, clean));
    });
  });
});
http.listen(0, '127.0.0.1', () => {
  const address = http.address();
  console.log(typeof address === 'object' && address ? address.port : 0);
});
process.once('SIGTERM', () => {
  http.close(() => {
    bare.close();
    process.exit(0);
  });
  http.closeAllConnections();
});
