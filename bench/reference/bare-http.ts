import { fileURLToPath } from 'node:url';
import { processCpuMs } from '../process-cpu.js';
import { startListening } from './listening.js';

/** bare-http-server.ts in its own process, answering with the service's own answers. */

export interface BareAnswer {
  headers: Record<string, string>;
  body: string;
}

export interface BareHttp {
  base: string;
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

const server = fileURLToPath(new URL('./bare-http-server.ts', import.meta.url));

export async function startBareHttp(answers: {
  post: BareAnswer;
  get: BareAnswer;
}): Promise<BareHttp> {
  const child = await startListening(server, [], {
    PATH: process.env.PATH ?? '',
    BARE_ANSWERS: JSON.stringify(answers),
  });
  return { base: child.base, cpuMs: () => processCpuMs(child.pid), stop: () => child.stop() };
}

/** Headers node:http writes itself for every answer: the bare server's own are as good. */
const perConnection = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);

/**
 * The answer `url` gives, as the bare server should repeat it: the body and every header the
 * service wrote, so the bare server writes the same bytes and never less work than the service.
 * Asked for without compression: fetch would ask for gzip and hand back the body decoded under a
 * `content-encoding: gzip` header, where the bench's clients ask for no encoding and get none.
 */
export async function answerOf(url: string, init?: RequestInit): Promise<BareAnswer> {
  const requestHeaders = new Headers(init?.headers);
  requestHeaders.set('accept-encoding', 'identity');
  const response = await fetch(url, { ...init, headers: requestHeaders });
  const body = await response.text();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) {
    if (perConnection.has(name)) continue;
    // The service varies on Accept-Encoding only for a client that sent one, as this request did.
    const kept =
      name === 'vary'
        ? value
            .split(',')
            .map((token) => token.trim())
            .filter((token) => token.toLowerCase() !== 'accept-encoding')
            .join(', ')
        : value;
    if (kept !== '') headers[name] = kept;
  }
  return { headers, body };
}
