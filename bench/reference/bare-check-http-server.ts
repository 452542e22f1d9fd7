import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { BareAnswer } from './bare-http.js';
import { checkWithinTimeout, openBareCheck } from './bare-check.js';
import { listenAndReport } from './listening.js';

/**
 * The bare client (bare-check.ts) behind a bare node:http server, no framework: the least any
 * service that answers an IP check over HTTP does (section 14's `bare-http` side). A POST of
 * `{"target": address}` runs the bare check and answers with the service's own answer to a
 * check (BARE_CHECK_ANSWER, a `BareAnswer`: every header, and the body with its token, `ip`
 * and `from_cache` made afresh for each request and serialised again), so it writes as many bytes
 * as the service does. A check that fails answers no list as answered, which bench/ip-checks.ts
 * counts as a failure. Arguments as bare-check-process.ts's; prints its port once listening.
 */

const [server = '', zonesJson = '[]', entriesJson = '[]'] = process.argv.slice(2);
const bare = await openBareCheck(
  server,
  JSON.parse(zonesJson) as string[],
  JSON.parse(entriesJson) as string[],
);
const template = JSON.parse(process.env.BARE_CHECK_ANSWER ?? '') as BareAnswer;
const result = JSON.parse(template.body) as { ip_score: Record<string, unknown> };

function answer(target: string, clean: boolean): string {
  return JSON.stringify({
    ...result,
    token: randomUUID(),
    ip: target,
    from_cache: false,
    ...(clean ? {} : { ip_score: { ...result.ip_score, answered: 0 } }),
  });
}

const http = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const { target } = JSON.parse(Buffer.concat(chunks).toString()) as { target: string };
    void checkWithinTimeout(bare, target)
      .catch(() => false)
      .then((clean) => response.writeHead(200, template.headers).end(answer(target, clean)));
  });
});
listenAndReport(http, () => bare.close());
