import {
  type PolicyFetcher,
  type PolicyFetchRequest,
  type PolicyFetchResult,
  reachableBy,
} from '../../reputation/index.js';

/**
 * The MTA-STS policy fetch on Workers (RFC 8461 §3.3, docs/mail.md): `fetch` of
 * `https://<host><path>`, https only, `redirect: 'manual'` (a 3xx is refused, never followed), at
 * most 64 KB read (the bound Node keeps), within the time bound and the check's signal. The
 * runtime verifies the certificate for the host. A Worker cannot choose the address `fetch`
 * connects to: the check's reachability rule is applied to the address it resolved, and
 * Cloudflare's `fetch` does not reach private networks.
 */

export interface FetchPolicyOptions {
  /** PROBE_HTTPS_PORT (443 unless a test world says otherwise). */
  port: number;
  timeoutMs: number;
  reachable: (address: string) => boolean;
  /**
   * How the GET is sent: the runtime's `fetch` unless given. The workerd tests give one that
   * carries it over http to a server of theirs, as the runtime's `fetch` resolves the policy host
   * with the system's resolver, not with the test world's (docs/edge.md, "Tests").
   */
  fetch?: typeof fetch;
}

const maxPolicyBytes = 64 * 1024;
const utf8 = new TextDecoder();

export function createFetchPolicyFetcher(options: FetchPolicyOptions): PolicyFetcher {
  return { fetch: (asked) => fetchPolicy(options, asked) };
}

async function fetchPolicy(
  options: FetchPolicyOptions,
  asked: PolicyFetchRequest,
): Promise<PolicyFetchResult> {
  if (!reachableBy(options.reachable, asked)(asked.address)) {
    return { ok: false, reason: `${asked.address} is not a public address` };
  }
  const port = options.port === 443 ? '' : `:${options.port}`;
  const signal = AbortSignal.any([asked.signal, AbortSignal.timeout(options.timeoutMs)]);
  try {
    const send = options.fetch ?? ((input, init) => fetch(input, init));
    const response = await send(`https://${asked.host}${port}${asked.path}`, {
      headers: { accept: 'text/plain' },
      redirect: 'manual',
      signal,
    });
    const status = response.status;
    if (status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      // §3.3: "senders MUST NOT follow redirects", and only a 200 carries the policy.
      return status >= 300 && status < 400
        ? { ok: false, reason: `HTTP ${status}: a redirect, which RFC 8461 §3.3 forbids following` }
        : { ok: false, reason: `HTTP ${status}` };
    }
    const body = await readAtMost(response, maxPolicyBytes);
    if (body === undefined) {
      return { ok: false, reason: `a policy over ${maxPolicyBytes / 1024} KB` };
    }
    return { ok: true, body, contentType: response.headers.get('content-type') };
  } catch (error) {
    if (asked.signal.aborted) return { ok: false, reason: 'the check’s deadline passed' };
    if (signal.aborted) {
      return { ok: false, reason: `no whole answer within ${options.timeoutMs} ms` };
    }
    return { ok: false, reason: (error as Error).message };
  }
}

/** The body as text, or undefined past `limit` bytes (the rest is let go). */
async function readAtMost(response: Response, limit: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.byteLength;
      if (read > limit) return undefined;
      chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(read);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return utf8.decode(bytes);
}
