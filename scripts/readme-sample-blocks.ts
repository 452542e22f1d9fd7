import { createApp } from '../src/app.js';
import { readConfig } from '../src/node/config.js';
import { createNodeServices } from '../src/node/services.js';
import { loadZoneList } from '../src/reputation/index.js';
import { startFixtureDnsServer } from '../fixtures/dns-server.js';
import { demoAddresses, demoNames, demoWorld } from './demo-world.js';

/**
 * The README's sample outputs (its `console` blocks marked `<!-- sample NAME -->`), answered by
 * the service over the demo DNS world (`npm run demo`'s), so they say what the demo answers now.
 * `npm run samples:readme` writes them into README.md; test/scripts/readme-samples.test.ts
 * fails when README.md says something else.
 *
 * A sample shows the fields that matter and elides the rest (`…`), as `SHAPES` choose; tokens
 * and times differ from run to run, so the test compares the blocks with those normalised.
 */

/** Which fields of an answer a sample shows: all of a value, its elision, or chosen members. */
type Shape = true | '…' | { [key: string]: Shape } | { first: number; last?: number };

interface Sample {
  /** The command after `$ `, as README's "Routes" defines `$B` and `$J`. */
  command: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  shape: Shape;
}

const post = (path: string, body: unknown, shape: Shape): Sample => ({
  command: `curl -s $B${path} -H "$J" -d '${JSON.stringify(body)}'`,
  method: 'POST',
  path,
  body,
  shape,
});

const ipv6InAnotherForm = demoAddresses.ipv6.toUpperCase().replace('::', ':0:0:0:0:');

/** The samples, in README order: a quota sample counts the checks of the samples before it. */
export const samples: Record<string, Sample[]> = {
  ipv6: [
    post(
      '/ip/v1',
      { target: ipv6InAnotherForm },
      {
        kind: true,
        target: true,
        ip_score: { score: true, verdict: true, summary: true, lists: '…', rdns: '…' },
        token: true,
        from_cache: true,
        configured: true,
      },
    ),
  ],
  domain: [
    post(
      '/domain/v1',
      { domain: ' ', target: demoNames.domain },
      {
        domain: true,
        ips: { first: 1 },
        ips_total: true,
        ranges: '…',
        spf: '…',
        dmarc: '…',
        domain_score: { score: true, verdict: true },
        addresses: { checked: true },
      },
    ),
  ],
  pool: [
    post('/pool/v1/discover', { pool: demoNames.pool }, { kind: true, ips: { first: 1, last: 1 } }),
    post(
      '/pool/v1/check',
      { pool: demoNames.pool, ips: ['192.0.3.103'] },
      { kind: true, results: true },
    ),
  ],
  quota: [
    { command: 'curl -s $B/ip/v1/status', method: 'GET', path: '/ip/v1/status', shape: true },
    post('/ip/v1', { target: '10.0.0.1' }, true),
  ],
};

/** A value as a sample shows it: compact JSON with `…` where members or items are left out. */
export function renderShaped(value: unknown, shape: Shape): string {
  if (shape === true) return JSON.stringify(value);
  if (shape === '…') return Array.isArray(value) ? '[…]' : '{…}';
  if (Array.isArray(value)) {
    const { first, last = 0 } = shape as { first: number; last?: number };
    if (value.length <= first + last) return JSON.stringify(value);
    const shown = [
      ...value.slice(0, first).map((item) => JSON.stringify(item)),
      '…',
      ...(last > 0 ? value.slice(-last).map((item) => JSON.stringify(item)) : []),
    ];
    return `[${shown.join(',')}]`;
  }
  const members = shape as Record<string, Shape>;
  const parts: string[] = [];
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    const chosen = members[key];
    if (chosen === undefined) {
      if (parts.at(-1) !== '…') parts.push('…');
    } else {
      parts.push(`${JSON.stringify(key)}:${renderShaped(member, chosen)}`);
    }
  }
  return `{${parts.join(',')}}`;
}

/** Wraps a line of JSON after a comma outside strings, so no line passes `width` columns. */
export function wrapJson(line: string, width = 100): string[] {
  const lines: string[] = [];
  let rest = line;
  while (rest.length > width) {
    let cut = -1;
    let inString = false;
    for (let i = 0; i < rest.length && i < width; i++) {
      const char = rest[i];
      if (char === '\\' && inString) i++;
      else if (char === '"') inString = !inString;
      else if (char === ',' && !inString) cut = i + 1;
    }
    if (cut <= 0) break;
    lines.push(rest.slice(0, cut));
    rest = ` ${rest.slice(cut)}`;
  }
  return [...lines, rest];
}

/** Every sample block's text (inside its `console` fence), answered by the demo world now. */
export async function answerSamples(): Promise<Record<string, string>> {
  const dns = await startFixtureDnsServer({ zones: demoWorld(await loadZoneList()) });
  const config = readConfig({
    DNS_SERVERS: dns.address,
    POOL_NS_PORT: String(dns.port),
    POOL_NS_ALLOW_NON_PUBLIC: 'true',
    STORE_URL: 'memory:',
    LOG_LEVEL: 'silent',
  });
  const services = await createNodeServices(config, () => {});
  try {
    const app = createApp({ ...services, config, peerAddress: () => '192.0.2.1' });
    const blocks: Record<string, string> = {};
    for (const [name, list] of Object.entries(samples)) {
      const lines: string[] = [];
      for (const sample of list) {
        const response = await app.request(`${config.basePath}${sample.path}`, {
          method: sample.method,
          ...(sample.body === undefined
            ? {}
            : {
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(sample.body),
              }),
        });
        lines.push(
          `$ ${sample.command}`,
          ...wrapJson(renderShaped(await response.json(), sample.shape)),
        );
      }
      blocks[name] = lines.join('\n');
    }
    return blocks;
  } finally {
    await services.close();
    await dns.close();
  }
}

/** A marked block; prettier puts a blank line between the mark and the fence. */
const marked = /(<!-- sample (\w+) -->\n\n?```console\n)([\s\S]*?)(\n```)/g;

/** The samples README.md holds now, by name. */
export function readmeSamples(readme: string): Record<string, string> {
  return Object.fromEntries([...readme.matchAll(marked)].map((match) => [match[2]!, match[3]!]));
}

/** README.md with its sample blocks replaced by `blocks` (each marked block must have one). */
export function withSamples(readme: string, blocks: Record<string, string>): string {
  return readme.replace(marked, (_all, head: string, name: string, _old, tail: string) => {
    const block = blocks[name];
    if (block === undefined) throw new Error(`README.md: no sample named ${name}`);
    return `${head}${block}${tail}`;
  });
}

/** Tokens and times differ from run to run: the same placeholder for each. */
export function normalised(block: string): string {
  return block
    .replace(/"token":"[\w-]{22}"/g, '"token":"<token>"')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>');
}
