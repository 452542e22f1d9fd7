import { describe, expect, it } from 'vitest';
import { createFetchPolicyFetcher } from '../../src/workers/probes/index.js';
import { policyServerUrl } from './support/service.js';

/**
 * The MTA-STS policy fetcher of Workers inside workerd (RFC 8461 §3.3, docs/mail.md): the
 * runtime's own `fetch` and streams, to a server the fixture service runs in Node. workerd
 * resolves a URL's host with the system's resolver, never with the test world's DNS, so
 * `https://mta-sts.<domain>` cannot reach a test server: the fetcher is given a `fetch` that
 * sends its request, options and all (`redirect: 'manual'`, the signal), over http to that
 * server instead (docs/edge.md, "Tests"). What is tested is the fetcher's rules as the runtime
 * runs them: the policy, a redirect refused and not followed, a status other than 200, the 64 KB
 * bound, the time bound, the check's signal, a host that is not public.
 */

const path = '/.well-known/mta-sts.txt';

function fetcherTo(kind: Parameters<typeof policyServerUrl>[0], timeoutMs = 2000) {
  const asked: string[] = [];
  const fetcher = createFetchPolicyFetcher({
    port: 443,
    timeoutMs,
    reachable: (address) => address !== '10.0.0.7',
    fetch: (input, init) => {
      const url = new URL(String(input));
      asked.push(url.href);
      return fetch(`${policyServerUrl(kind)}${url.pathname}`, init);
    },
  });
  return { fetcher, asked };
}

const request = (signal = new AbortController().signal) => ({
  host: 'mta-sts.edge-mail.net',
  address: '185.50.0.80',
  path,
  signal,
});

describe('the MTA-STS policy fetcher on Workers', () => {
  it('fetches the policy at https://mta-sts.<domain>/.well-known/mta-sts.txt', async () => {
    const { fetcher, asked } = fetcherTo('ok');
    const result = await fetcher.fetch(request());
    expect(result).toMatchObject({ ok: true, contentType: 'text/plain' });
    expect(result.ok && result.body).toContain('mode: enforce');
    expect(asked).toEqual([`https://mta-sts.edge-mail.net${path}`]);
  });

  it('refuses a redirect without following it', async () => {
    const { fetcher } = fetcherTo('redirect');
    expect(await fetcher.fetch(request())).toEqual({
      ok: false,
      reason: 'HTTP 301: a redirect, which RFC 8461 §3.3 forbids following',
    });
  });

  it('refuses any status but 200', async () => {
    const { fetcher } = fetcherTo('missing');
    expect(await fetcher.fetch(request())).toEqual({ ok: false, reason: 'HTTP 404' });
  });

  it('refuses a policy over 64 KB', async () => {
    const { fetcher } = fetcherTo('large');
    expect(await fetcher.fetch(request())).toEqual({ ok: false, reason: 'a policy over 64 KB' });
  });

  it('gives up on a body that stalls at its time bound', async () => {
    const { fetcher } = fetcherTo('stalls', 500);
    const started = Date.now();
    expect(await fetcher.fetch(request())).toEqual({
      ok: false,
      reason: 'no whole answer within 500 ms',
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('ends with the check’s signal', async () => {
    const { fetcher } = fetcherTo('stalls', 10_000);
    expect(await fetcher.fetch(request(AbortSignal.timeout(300)))).toEqual({
      ok: false,
      reason: 'the check’s deadline passed',
    });
  });

  it('asks nothing of a host whose address is not public', async () => {
    const { fetcher, asked } = fetcherTo('ok');
    expect(await fetcher.fetch({ ...request(), address: '10.0.0.7' })).toEqual({
      ok: false,
      reason: '10.0.0.7 is not a public address',
    });
    expect(asked).toEqual([]);
  });
});
