import { type IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { isIPv6, type LookupFunction } from 'node:net';
import {
  type PolicyFetcher,
  type PolicyFetchRequest,
  type PolicyFetchResult,
  reachableBy,
} from '../../reputation/index.js';

/**
 * The MTA-STS policy fetch on Node (RFC 8461 §3.3): one GET of
 * `https://mta-sts.<domain>/.well-known/mta-sts.txt`, connected to the address the check resolved
 * and judged reachable (a pinned lookup, as webhooks connect, so DNS rebinding cannot move it),
 * the certificate verified by Node for the host name (its trust store plus NODE_EXTRA_CA_CERTS),
 * no redirect followed, at most 64 KB read, within the time bound.
 */

export interface PolicyFetchOptions {
  /** PROBE_HTTPS_PORT. */
  port: number;
  timeoutMs: number;
  reachable: (address: string) => boolean;
}

/** RFC 8461 §3.2 sets no size; 64 KB is far past any policy (a few hundred octets). */
export const maxPolicyBytes = 64 * 1024;

export function createPolicyFetcher(options: PolicyFetchOptions): PolicyFetcher {
  return { fetch: (asked) => fetchPolicy(options, asked) };
}

function fetchPolicy(
  options: PolicyFetchOptions,
  asked: PolicyFetchRequest,
): Promise<PolicyFetchResult> {
  if (!reachableBy(options.reachable, asked)(asked.address)) {
    return Promise.resolve({ ok: false, reason: `${asked.address} is not a public address` });
  }
  const family = isIPv6(asked.address) ? 6 : 4;
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: asked.address, family }]);
    else callback(null, asked.address, family);
  };
  return new Promise<PolicyFetchResult>((resolve) => {
    let settled = false;
    const settle = (result: PolicyFetchResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      asked.signal.removeEventListener('abort', onAbort);
      outgoing.destroy();
      resolve(result);
    };
    const onAbort = () => settle({ ok: false, reason: 'the check’s deadline passed' });
    const outgoing = request(
      {
        host: asked.host,
        port: options.port,
        path: asked.path,
        method: 'GET',
        servername: asked.host,
        lookup: pinned,
        agent: false,
        headers: { accept: 'text/plain' },
      },
      (answer: IncomingMessage) => {
        const status = answer.statusCode ?? 0;
        // §3.3: "senders MUST NOT follow redirects", and only a 200 carries the policy.
        if (status >= 300 && status < 400) {
          return settle({
            ok: false,
            reason: `HTTP ${status}: a redirect, which RFC 8461 §3.3 forbids following`,
          });
        }
        if (status !== 200) return settle({ ok: false, reason: `HTTP ${status}` });
        const chunks: Buffer[] = [];
        let read = 0;
        answer.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > maxPolicyBytes)
            return settle({ ok: false, reason: `a policy over ${maxPolicyBytes / 1024} KB` });
          chunks.push(chunk);
        });
        answer.on('end', () =>
          settle({
            ok: true,
            body: Buffer.concat(chunks).toString('utf8'),
            contentType: answer.headers['content-type'] ?? null,
          }),
        );
        answer.on('error', (error) => settle({ ok: false, reason: error.message }));
      },
    );
    const timer = setTimeout(
      () => settle({ ok: false, reason: `no whole answer within ${options.timeoutMs} ms` }),
      options.timeoutMs,
    );
    if (asked.signal.aborted) onAbort();
    else asked.signal.addEventListener('abort', onAbort, { once: true });
    // A certificate Node does not trust for the host ends here, with Node's reason.
    outgoing.on('error', (error) => settle({ ok: false, reason: error.message }));
    outgoing.end();
  });
}
