import {
  type ClientHttp2Session,
  type ClientHttp2Stream,
  connect,
  constants,
  type IncomingHttpHeaders,
} from 'node:http2';
import type { Socket } from 'node:net';
import {
  dnsMessage,
  type DohExchange,
  type ExchangeReceiver,
  type ExchangeResult,
  fetchExchange,
  isDnsResponse,
  joinChunks,
  maxMessageBytes,
} from '../../dns/index.js';

/**
 * DNS over HTTPS on Node over one HTTP/2 session per endpoint origin (RFC 8484 §5.2 names HTTP/2
 * the minimum it recommends): every exchange a stream on one long-lived connection, instead of a
 * `fetch` per exchange through undici, whose CPU per exchange docs/edge.md measured at several
 * times the DNS work's. `https://` endpoints speak HTTP/2 over TLS (ALPN h2), `http://` ones
 * HTTP/2 cleartext with prior knowledge (RFC 9113 §3.3).
 *
 * - A session that closes, errs or is sent GOAWAY is forgotten; the next exchange opens a new one.
 *   A stream the server refused unprocessed (REFUSED_STREAM, as after its GOAWAY: RFC 9113 §8.7)
 *   is sent again once on a new session; other exchanges the session carried fail as
 *   `no-answer`, and the DoH transport's retries and failover take it from there.
 * - An endpoint that accepts the connection but does not speak HTTP/2 (an HTTP/1.1-only server:
 *   its first bytes are no HTTP/2 SETTINGS) is asked through `fetch`, from its first exchange on.
 * - Sessions are unref'd: they never hold the process open. `close()` ends them.
 */

export interface Http2Exchanges {
  exchange: DohExchange;
  /** Closes every session; exchanges in flight fail as `no-answer`. */
  close(): void;
}

interface Endpoint {
  url: string;
  origin: string;
  path: string;
}

/** One session, and what it learned about its peer: what it sent, whether that was HTTP/2. */
interface Session {
  session: ClientHttp2Session;
  socket?: Socket;
  spokeHttp2: boolean;
}

/** What the exchanges of one `createHttp2Exchanges` share. */
interface Sessions {
  /** A session to `origin` that may take a stream, or undefined once closed. */
  sessionFor(origin: string): Session | undefined;
  forget(origin: string, session: Session): void;
  /** Whether the origin answered a connection in something other than HTTP/2. */
  speaksHttp1Only(origin: string): boolean;
  markHttp1Only(origin: string): void;
  fallback: DohExchange;
}

const { HTTP2_HEADER_STATUS, HTTP2_HEADER_CONTENT_TYPE, HTTP2_HEADER_CONTENT_LENGTH } = constants;

/** Whether `session` connected to a peer that sent bytes, none of them HTTP/2 SETTINGS. */
function spokeAnotherProtocol(session: Session): boolean {
  return !session.spokeHttp2 && (session.socket?.bytesRead ?? 0) > 0;
}

/** One exchange: a stream on the origin's session (again on a new one if refused), or a fetch. */
class Http2Exchange {
  #stream: ClientHttp2Stream | undefined;
  #cancelFallback: (() => void) | undefined;
  #chunks: Buffer[] = [];
  #length = 0;
  #responded = false;
  #resent = false;
  #done = false;

  constructor(
    private readonly sessions: Sessions,
    private readonly endpoint: Endpoint,
    private readonly query: Uint8Array,
    private readonly receiver: ExchangeReceiver,
  ) {}

  start(): void {
    const { origin } = this.endpoint;
    if (this.sessions.speaksHttp1Only(origin)) {
      this.#cancelFallback = this.sessions.fallback(this.endpoint.url, this.query, this.receiver);
      this.#done = true;
      return;
    }
    const session = this.sessions.sessionFor(origin);
    let stream: ClientHttp2Stream;
    try {
      if (!session) throw new Error('closed');
      stream = session.session.request({
        ':method': 'POST',
        ':path': this.endpoint.path,
        'content-type': dnsMessage,
        accept: dnsMessage,
        'content-length': this.query.length,
      });
    } catch {
      // Closed, or closing (a GOAWAY not yet seen): no answer; the next exchange opens a session.
      if (session) this.sessions.forget(origin, session);
      queueMicrotask(() => this.#finish('no-answer'));
      return;
    }
    this.#stream = stream;
    stream.on('response', (headers) => this.#response(stream, headers));
    stream.on('data', (chunk: Buffer) => this.#data(stream, chunk));
    stream.on('end', () => this.#ended(stream));
    stream.on('error', () => this.#failed(stream, session));
    stream.on('close', () => this.#failed(stream, session));
    stream.end(this.query);
  }

  cancel(): void {
    this.#cancelFallback?.();
    if (this.#done) return;
    this.#done = true;
    this.#stream?.close(constants.NGHTTP2_CANCEL);
  }

  #response(stream: ClientHttp2Stream, headers: IncomingHttpHeaders): void {
    if (stream !== this.#stream) return;
    this.#responded = true;
    const status = Number(headers[HTTP2_HEADER_STATUS]);
    const type = headers[HTTP2_HEADER_CONTENT_TYPE] as string | undefined;
    const length = Number(headers[HTTP2_HEADER_CONTENT_LENGTH]);
    if (!isDnsResponse(status, type) || length > maxMessageBytes) this.#finish('bad-answer');
  }

  #data(stream: ClientHttp2Stream, chunk: Buffer): void {
    if (stream !== this.#stream) return;
    this.#length += chunk.length;
    // Refused past the largest DNS message: a hostile endpoint must not fill the memory.
    if (this.#length > maxMessageBytes) this.#finish('bad-answer');
    else this.#chunks.push(chunk);
  }

  #ended(stream: ClientHttp2Stream): void {
    if (stream === this.#stream) this.#finish(joinChunks(this.#chunks, this.#length));
  }

  /** The stream ended without its whole answer: a reset, or its session gone. */
  #failed(stream: ClientHttp2Stream, session: Session): void {
    if (stream !== this.#stream || this.#done) return;
    if (!this.#responded && spokeAnotherProtocol(session)) {
      this.sessions.markHttp1Only(this.endpoint.origin);
      this.start();
    } else if (
      !this.#responded &&
      !this.#resent &&
      stream.rstCode === constants.NGHTTP2_REFUSED_STREAM
    ) {
      this.#resent = true;
      this.sessions.forget(this.endpoint.origin, session);
      this.start();
    } else {
      this.#finish('no-answer');
    }
  }

  #finish(result: ExchangeResult): void {
    if (this.#done) return;
    this.#done = true;
    const stream = this.#stream;
    if (typeof result === 'string' && stream && !stream.closed) {
      stream.close(constants.NGHTTP2_CANCEL);
    }
    this.receiver.exchanged(result);
  }
}

export function createHttp2Exchanges(): Http2Exchanges {
  const endpoints = new Map<string, Endpoint>();
  const open = new Map<string, Session>();
  const http1Only = new Set<string>();
  let closed = false;

  function connectTo(origin: string): Session {
    const session: Session = { session: connect(origin), spokeHttp2: false };
    const { session: http2 } = session;
    open.set(origin, session);
    http2.unref();
    http2.once('connect', (_session, socket) => {
      session.socket = socket as Socket;
    });
    http2.once('remoteSettings', () => {
      session.spokeHttp2 = true;
    });
    const forget = () => sessions.forget(origin, session);
    // Without a listener an 'error' would be thrown out of the event loop. The streams on the
    // session see the error too and fail their exchanges.
    http2.on('error', forget);
    http2.on('goaway', forget);
    http2.on('close', () => {
      forget();
      if (spokeAnotherProtocol(session)) http1Only.add(origin);
    });
    return session;
  }

  const sessions: Sessions = {
    sessionFor(origin) {
      if (closed) return undefined;
      const session = open.get(origin);
      if (session && !session.session.closed && !session.session.destroyed) return session;
      return connectTo(origin);
    },
    forget(origin, session) {
      if (open.get(origin) === session) open.delete(origin);
    },
    speaksHttp1Only: (origin) => http1Only.has(origin),
    markHttp1Only: (origin) => http1Only.add(origin),
    fallback: fetchExchange(),
  };

  function endpointOf(url: string): Endpoint {
    let endpoint = endpoints.get(url);
    if (!endpoint) {
      const parsed = new URL(url);
      endpoint = { url, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
      endpoints.set(url, endpoint);
    }
    return endpoint;
  }

  return {
    exchange(url, query, receiver) {
      const exchange = new Http2Exchange(sessions, endpointOf(url), query, receiver);
      exchange.start();
      return () => exchange.cancel();
    },
    close() {
      closed = true;
      for (const { session } of open.values()) session.destroy();
      open.clear();
    },
  };
}
