import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../lib/index.js';
import { connectionClient, countClientConnections } from './client-connections.js';
import type { NodeConfig } from './config.js';
import { acceptedRequestId, newRequestId } from '../operations/index.js';
import { webCrypto } from '../platform.js';

/**
 * Connection hygiene of the Node server (docs/http-hardening.md#connections): a request must arrive
 * within its timeouts (Node answers 408 and closes the connection otherwise), an idle kept-alive
 * connection is closed, past a number of open connections a new one is refused with a short
 * 503 and closed, so slow clients cannot take every file descriptor of the process, and a client
 * holding its share of them has its next connection closed at once
 * (docs/http-hardening.md#connections-per-client), so one client cannot take them all.
 */

type Limits = NodeConfig['connections'];

/** The `serverOptions` of `serve()`: Node's own request, headers and keep-alive timeouts. */
export function serverOptions(limits: Limits) {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node checks the two request timeouts on this interval (30 s by default, which would let a
    // 30 s timeout run to 60 s); a tenth of a second per thousand connections at most.
    connectionsCheckingInterval: Math.max(
      50,
      Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)),
    ),
  };
}

/** What a refused connection reads before it is closed: our usual error body, code `busy`. */
const refusalBody = JSON.stringify({
  status: 'error',
  code: 'busy',
  error: 'too many open connections; try again shortly',
});

/**
 * The refusal with the CORS headers every answer of the app carries (src/http/cors.ts), so a
 * browser's script can read the 503 and its Retry-After instead of a network error, and a request
 * id as every answer has (the caller's when well formed: docs/operations.md).
 */
function refusalFor(cors: Record<string, string>, requestId: string): string {
  return [
    'HTTP/1.1 503 Service Unavailable',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(refusalBody)}`,
    'Retry-After: 1',
    `X-Request-Id: ${requestId}`,
    ...Object.entries(cors).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
    '',
    refusalBody,
  ].join('\r\n');
}

/**
 * A header of a request's first bytes, read without the HTTP parser (RFC 9110 §5.1: the name is
 * case-insensitive); empty when the head holds none.
 */
function headerOf(head: string, name: string): string {
  const end = head.indexOf('\r\n\r\n');
  const headers = end === -1 ? head : head.slice(0, end);
  return (
    new RegExp(`\\r\\n${name}:[ \\t]*([^\\r\\n]*?)[ \\t]*(\\r\\n|$)`, 'i').exec(headers)?.[1] ?? ''
  );
}

/** How long a refused connection may take to send its request's head, for its Origin. */
const refusalWaitMs = 200;
/** A refused connection that does not close its side is cut after this. */
const refusalLingerMs = 1000;
const refusalLogIntervalMs = 10_000;

/** Why a connection was refused: past MAX_CONNECTIONS, or past its client's share. */
export type ConnectionRefusal = 'busy' | 'per_client';

/** The limits `limitConnections` applies. */
export interface ConnectionLimits {
  /** MAX_CONNECTIONS: past it a new connection reads a 503 `busy`. */
  max: number;
  /** MAX_CONNECTIONS_PER_CLIENT: past it a client's new connection is closed at once. */
  maxPerClient: number;
  /** Peers whose connections are not counted per client: the proxies TRUST_PROXY believes. */
  uncapped: (remoteAddress: string) => boolean;
}

/**
 * Counts the server's open connections, in all and per client, and refuses those past the limits:
 * past its client's share a connection is closed at once, without an answer; past `max` it gets
 * the 503 above. Refused connections never reach the HTTP parser. Called before the server
 * accepts its first connection.
 */
export function limitConnections(
  server: Server,
  { max, maxPerClient, uncapped }: ConnectionLimits,
  log: Logger,
  corsHeadersFor: (origin: string) => Record<string, string>,
  onRefused: (refusal: ConnectionRefusal) => void = () => {},
): void {
  // node:http parses every connection through the 'connection' listener its constructor added:
  // the limit goes in front of it, so a refused connection is never parsed nor dispatched.
  const parse = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  const clients = countClientConnections(maxPerClient);
  let open = 0;
  let lingering = 0;
  const refused = { busy: 0, perClient: 0 };
  let lastLog = 0;

  function counted(refusal: ConnectionRefusal): void {
    if (refusal === 'busy') refused.busy++;
    else refused.perClient++;
    onRefused(refusal);
    const now = Date.now();
    if (now - lastLog >= refusalLogIntervalMs) {
      log('info', 'connections refused', {
        refused: refused.busy + refused.perClient,
        perClient: refused.perClient,
        open,
        max,
        maxPerClient,
      });
      lastLog = now;
      refused.busy = 0;
      refused.perClient = 0;
    }
  }

  function refuse(socket: Socket): void {
    counted('busy');
    socket.on('error', () => {});
    // More refused connections lingering than served ones: close at once, without an answer.
    if (lingering >= max) {
      socket.destroy();
      return;
    }
    lingering++;
    socket.once('close', () => lingering--);
    let answered = false;
    const answer = (head: string) => {
      if (answered) return;
      answered = true;
      const requestId =
        acceptedRequestId(headerOf(head, 'x-request-id')) ?? newRequestId(webCrypto.randomBytes);
      socket.end(refusalFor(corsHeadersFor(headerOf(head, 'origin')), requestId));
    };
    socket.once('data', (chunk: Buffer) => answer(chunk.toString('latin1')));
    setTimeout(() => answer(''), refusalWaitMs).unref();
    socket.resume();
    setTimeout(() => socket.destroy(), refusalLingerMs).unref();
  }

  /**
   * Counts the connection against its client; false when the client already holds its share.
   * Every socket counts until it closes, a refused one lingering too, so a client never holds
   * more than its share of descriptors, in any state.
   */
  function admitted(socket: Socket): boolean {
    const address = socket.remoteAddress;
    // No address: the peer is already gone, and node:http will see the socket closed.
    if (address === undefined || uncapped(address)) return true;
    const client = connectionClient(address);
    if (!clients.open(client)) return false;
    socket.once('close', () => clients.close(client));
    return true;
  }

  server.on('connection', (socket: Socket) => {
    // The client's share first: a client past it must not take a slot of MAX_CONNECTIONS, nor
    // a lingering refusal's.
    if (!admitted(socket)) {
      counted('per_client');
      socket.on('error', () => {});
      socket.destroy();
      return;
    }
    if (open >= max) {
      refuse(socket);
      return;
    }
    open++;
    socket.once('close', () => open--);
    for (const listener of parse) listener.call(server, socket);
  });
}
