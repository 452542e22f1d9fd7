import { readBounded } from '../lib/index.js';
import type { AttemptFailure } from './pending-query.js';
import { MalformedMessageError, maxMessageBytes } from './wire.js';

/**
 * How one DNS-over-HTTPS exchange (RFC 8484 §4.1) is sent, apart from what it means: the DoH
 * transport takes it from its caller. `fetch` sends it on Workers (its native HTTP stack); on
 * Node one HTTP/2 session per endpoint does (src/node/dns/doh-session.ts), as undici's `fetch`
 * costs several times the CPU of the exchange itself (docs/edge.md).
 */

/** The DNS message an endpoint answered, or why there is none. */
export type ExchangeResult = Uint8Array | AttemptFailure;

/** Who waits for an exchange: told once, unless it gave the exchange up first. */
export interface ExchangeReceiver {
  exchanged(result: ExchangeResult): void;
}

/**
 * POSTs `query` to `endpoint` and tells `receiver` what came back: the body of a 2xx
 * `application/dns-message` response of at most 65,535 octets (RFC 1035 §4.2.2), `bad-answer`
 * for any other response, `no-answer` when none came. Returns how to give the exchange up; the
 * receiver then hears nothing. Never throws for what the endpoint does.
 */
export type DohExchange = (
  endpoint: string,
  query: Uint8Array,
  receiver: ExchangeReceiver,
) => () => void;

/** RFC 8484 §6: the media type of a DNS message, in both directions. */
export const dnsMessage = 'application/dns-message';

/**
 * RFC 8484 §4.2.1: every DNS answer, NXDOMAIN and SERVFAIL included, comes with a 2xx status and
 * the DNS media type; anything else is the endpoint failing, not the DNS.
 */
export function isDnsResponse(status: number, contentType: string | null | undefined): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  return status >= 200 && status < 300 && mediaType === dnsMessage;
}

/** The body, refused past the largest DNS message: a hostile endpoint must not fill the memory. */
async function readMessage(response: Response): Promise<Uint8Array> {
  if (Number(response.headers.get('content-length')) > maxMessageBytes) {
    throw new MalformedMessageError('answer over 65535 octets');
  }
  return readBounded(
    response.body,
    maxMessageBytes,
    () => new MalformedMessageError('answer over 65535 octets'),
  );
}

async function post(
  send: typeof fetch,
  endpoint: string,
  query: Uint8Array,
  signal: AbortSignal,
): Promise<ExchangeResult> {
  try {
    const response = await send(endpoint, {
      method: 'POST',
      headers: { 'content-type': dnsMessage, accept: dnsMessage },
      body: query as Uint8Array<ArrayBuffer>,
      signal,
      // A DoH endpoint answers where it is asked: a redirect is a misconfiguration, not an answer.
      redirect: 'manual',
    });
    if (!isDnsResponse(response.status, response.headers.get('content-type'))) {
      await response.body?.cancel();
      return 'bad-answer';
    }
    return await readMessage(response);
  } catch (error) {
    // Timeouts, aborts, refused connections and resets all mean no answer came.
    return error instanceof MalformedMessageError && !signal.aborted ? 'bad-answer' : 'no-answer';
  }
}

/** Each exchange a `fetch` of its own (the runtime's unless given). */
export function fetchExchange(
  send: typeof fetch = (input, init) => fetch(input, init),
): DohExchange {
  return (endpoint, query, receiver) => {
    const controller = new AbortController();
    let waiting = true;
    void post(send, endpoint, query, controller.signal).then((result) => {
      if (!waiting) return;
      waiting = false;
      receiver.exchanged(result);
    });
    return () => {
      if (!waiting) return;
      waiting = false;
      controller.abort();
    };
  };
}
