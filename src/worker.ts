import { createDohTransport } from './dns/doh-transport.js';
import type { RecordType, Resolver } from './dns/resolver.js';
import { withResolverStack } from './dns/stack.js';

/**
 * The Workers entry point, for now a spike of the edge build (docs/edge.md): it answers a health
 * route and resolves names through the DoH transport, the code the full port will run on. The
 * API itself moves here with issue 14's Platform refactor.
 */

/** What `wrangler.toml`'s [vars] and `wrangler dev --var` give the worker. */
export interface Env {
  BASE_PATH?: string;
  DOH_URL?: string;
  DNS_TIMEOUT_MS?: string;
  DNS_RETRIES?: string;
}

const recordTypes = new Set<string>(['A', 'AAAA', 'PTR', 'TXT', 'MX', 'NS', 'CNAME']);

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

/** One resolver per isolate and configuration: its cache then outlives a request. */
let resolver: { key: string; resolver: Resolver } | undefined;

function resolverFor(env: Env): Resolver | undefined {
  const endpoints = (env.DOH_URL ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  if (endpoints.length === 0) return undefined;
  const key = JSON.stringify([endpoints, env.DNS_TIMEOUT_MS, env.DNS_RETRIES]);
  if (resolver?.key !== key) {
    const transport = createDohTransport({
      endpoints,
      timeoutMs: Number(env.DNS_TIMEOUT_MS ?? 1500),
      retries: Number(env.DNS_RETRIES ?? 1),
    });
    // Workers lets a request keep six connections open at once; more would only queue.
    resolver = { key, resolver: withResolverStack(transport, { maxInFlight: 6 }) };
  }
  return resolver.resolver;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const base = env.BASE_PATH ?? '/tools/ip-reputation';
    if (url.pathname === `${base}/edge/v1/health`) {
      return json({ status: 'ok', runtime: 'workers' });
    }
    if (url.pathname === `${base}/edge/v1/resolve`) {
      const name = url.searchParams.get('name') ?? '';
      const type = (url.searchParams.get('type') ?? 'A').toUpperCase();
      if (name === '' || !recordTypes.has(type)) {
        return json({ status: 'error', code: 'invalid_request', error: 'name and type' }, 400);
      }
      const dns = resolverFor(env);
      if (!dns) return json({ status: 'error', code: 'not_configured', error: 'DOH_URL' }, 503);
      return json(await dns.query(name, type as RecordType));
    }
    return json({ status: 'error', code: 'not_found', error: 'Not found' }, 404);
  },
};
