import { createEndpointFailover } from './endpoint-failover.js';
import type { DnsOutcome, QueryOptions, RecordData, RecordType, Resolver } from './resolver.js';
import { outcomeOf } from './response-outcome.js';
import { decodeResponse, encodeQuery, MalformedMessageError, maxMessageBytes } from './wire.js';

/**
 * The DNS transport over HTTPS (RFC 8484), with the outcomes of the c-ares transport. It needs
 * nothing but `fetch`, `AbortSignal` and the codec, so the same code runs on Node and on Workers.
 */

export interface DohTransportOptions {
  /** RFC 8484 endpoint URLs (`https://dns.example/dns-query`); the first is asked first. */
  endpoints: readonly string[];
  /** For one attempt: connecting, sending the query and reading the whole answer. */
  timeoutMs: number;
  /** Attempts after a first one that got no usable answer, each at the current endpoint. */
  retries: number;
  /** The runtime's `fetch` unless given. */
  fetch?: typeof fetch;
}

/** RFC 8484 §6: the media type of a DNS message, in both directions. */
const dnsMessage = 'application/dns-message';

/** How one attempt ended: an outcome, no answer at all, or an answer that is not a DNS answer. */
type Attempt<T> = { outcome: DnsOutcome<T> } | { failure: 'no-answer' | 'bad-answer' };

const noAnswer = { failure: 'no-answer' } as const;
const badAnswer = { failure: 'bad-answer' } as const;

function isDnsMessage(response: Response): boolean {
  const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  return mediaType === dnsMessage;
}

/** The body, refused past the largest DNS message: a hostile endpoint must not fill the memory. */
async function readMessage(response: Response): Promise<Uint8Array> {
  if (Number(response.headers.get('content-length')) > maxMessageBytes) {
    throw new MalformedMessageError('answer over 65535 octets');
  }
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > maxMessageBytes) {
      await reader.cancel();
      throw new MalformedMessageError('answer over 65535 octets');
    }
    chunks.push(value);
  }
  const message = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    message.set(chunk, at);
    at += chunk.length;
  }
  return message;
}

export function createDohTransport(options: DohTransportOptions): Resolver {
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  const failover = createEndpointFailover(options.endpoints.length);

  /** One POST (RFC 8484 §4.1) to `endpoint`, given up when `signal` aborts. */
  async function attempt<T extends RecordType>(
    endpoint: string,
    query: Uint8Array,
    name: string,
    type: T,
    signal: AbortSignal,
  ): Promise<Attempt<RecordData[T]>> {
    try {
      const response = await send(endpoint, {
        method: 'POST',
        headers: { 'content-type': dnsMessage, accept: dnsMessage },
        body: query,
        signal,
        // A DoH endpoint answers where it is asked: a redirect is a misconfiguration, not an answer.
        redirect: 'manual',
      });
      // RFC 8484 §4.2.1: every DNS answer, NXDOMAIN and SERVFAIL included, comes with a 2xx.
      if (!response.ok || !isDnsMessage(response)) {
        await response.body?.cancel();
        return badAnswer;
      }
      return { outcome: outcomeOf(decodeResponse(await readMessage(response)), name, type) };
    } catch (error) {
      // Timeouts, aborts, refused connections and resets all mean no answer came.
      return error instanceof MalformedMessageError && !signal.aborted ? badAnswer : noAnswer;
    }
  }

  async function resolve<T extends RecordType>(
    name: string,
    type: T,
    queryOptions: QueryOptions | undefined,
  ): Promise<DnsOutcome<RecordData[T]>> {
    // There is no way to reach one given server through an HTTPS endpoint (docs/edge.md).
    if (queryOptions?.servers !== undefined) return { status: 'refused' };
    let query: Uint8Array;
    try {
      query = encodeQuery(name, type);
    } catch {
      // A name the wire cannot carry: c-ares fails such a query as a server failure too.
      return { status: 'servfail' };
    }
    const caller = queryOptions?.signal;
    let someEndpointResponded = false;
    for (let tries = 0; tries <= options.retries && !caller?.aborted; tries++) {
      const endpoint = failover.current();
      const timeout = AbortSignal.timeout(queryOptions?.timeoutMs ?? options.timeoutMs);
      const signal = caller ? AbortSignal.any([caller, timeout]) : timeout;
      const result = await attempt(options.endpoints[endpoint]!, query, name, type, signal);
      if ('outcome' in result) return result.outcome;
      failover.failed(endpoint);
      someEndpointResponded ||= result.failure === 'bad-answer';
    }
    // An endpoint that answered with something other than a DNS answer failed like a server;
    // only when none answered at all is it a timeout.
    return { status: someEndpointResponded ? 'servfail' : 'timeout' };
  }

  return {
    query: (name, type, queryOptions) => resolve(name, type, queryOptions),
  };
}
