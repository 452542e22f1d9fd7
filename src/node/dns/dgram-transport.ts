import { LRUCache } from 'lru-cache';
import {
  attemptPolicy,
  type AttemptPolicy,
  createEndpointFailover,
  type DnsOutcome,
  encodeQuery,
  PendingQuery,
  type QueryOptions,
  readResponse,
  type RecordData,
  type RecordType,
  type Resolver,
  writeId,
} from '../../dns/index.js';
import { createQueryIds } from './query-ids.js';
import { parseServerAddress, type ServerAddress, systemServers } from './server-address.js';
import { type DatagramReceiver, ServerSocket } from './server-socket.js';
import { exchangeOverTcp, type TcpReceiver } from './tcp-exchange.js';

/**
 * The DNS transport on Node: queries over UDP on `node:dgram`, encoded and read by the codec of
 * src/dns/wire.ts, TCP for an answer that did not fit (docs/decisions.md says why not c-ares).
 * Per query: one message encoded, one promise, one timer, one ID on a long-lived socket; an
 * answer is read from its header alone unless it holds records; nothing is thrown.
 */

export interface DgramTransportOptions {
  /** `ip`, `ip:port` or `[ipv6]:port` entries; empty means the system's resolvers. */
  servers: readonly string[];
  /** For one attempt, UDP and the TCP retry of a truncated answer together. */
  timeoutMs: number;
  /** Attempts after a first one that got no answer. */
  retries: number;
}

export interface DgramTransport extends Resolver {
  /** The IDs queries hold on the sockets: what is waiting for an answer. */
  waiting(): number;
  /** Closes every socket; queries still waiting answer `timeout`, and so does every later one. */
  close(): void;
}

/**
 * RFC 6891 §6.2.5 and DNS Flag Day 2020: a UDP payload size that avoids IP fragmentation; an
 * answer over it comes back truncated and is asked again over TCP.
 */
const udpPayloadBytes = 1232;

/**
 * One socket sends and receives everything for its queries, and at hundreds of queries in flight
 * a burst of answers overflows its receive buffer (about 208 KB by default on Linux) and the
 * kernel drops them: `npm run bench` measured RcvbufErrors and lost listings at 32 checks in
 * flight on one socket. The configured servers therefore get several sockets each, used in turn.
 */
const configuredSocketsPerServer = 8;

/** Pool discovery asks each pool's own name servers, a set at a time: bounded, not kept forever. */
const maxNamedServerSets = 256;

const timedOut = { status: 'timeout' } as const;
const serverFailure = { status: 'servfail' } as const;

function parseServers(servers: readonly string[]): ServerAddress[] {
  return servers.map((entry) => {
    const server = parseServerAddress(entry);
    if (!server) throw new Error(`not a DNS server address: ${entry}`);
    return server;
  });
}

/** The servers a query may go to, their sockets, and the endpoint their queries start at. */
class ServerSet {
  readonly policy: AttemptPolicy;
  readonly #sockets: ServerSocket[][];
  readonly #turn: number[];

  constructor(
    readonly servers: readonly ServerAddress[],
    readonly socketsPerServer: number,
    options: DgramTransportOptions,
    private readonly nextId: () => number,
  ) {
    this.policy = attemptPolicy(options, createEndpointFailover(servers.length));
    this.#sockets = servers.map(() => []);
    this.#turn = servers.map(() => 0);
  }

  /** The next of the server's sockets in turn, opened when first needed or lost. */
  socketFor(endpoint: number): ServerSocket {
    const sockets = this.#sockets[endpoint]!;
    const turn = this.#turn[endpoint]!;
    this.#turn[endpoint] = (turn + 1) % this.socketsPerServer;
    let socket = sockets[turn];
    if (!socket || socket.closed) {
      socket = new ServerSocket(this.servers[endpoint]!, this.nextId);
      sockets[turn] = socket;
    }
    return socket;
  }

  waiting(): number {
    return this.#sockets.flat().reduce((sum, socket) => sum + socket.pending, 0);
  }

  /** Closes each socket once its queries are done. */
  retire(): void {
    for (const socket of this.#sockets.flat()) socket.retire();
  }

  close(): void {
    for (const socket of this.#sockets.flat()) socket.close();
  }
}

/** Where a query was sent before its attempt moved to another server: an answer there still counts. */
interface EarlierSend {
  socket: ServerSocket;
  id: number;
  message: Uint8Array;
}

class UdpQuery<T extends RecordType>
  extends PendingQuery<RecordData[T]>
  implements DatagramReceiver, TcpReceiver
{
  #socket: ServerSocket | undefined;
  #id = 0;
  #earlier: EarlierSend[] | undefined;
  #overTcp = false;
  #cancelTcp: (() => void) | undefined;

  constructor(
    private readonly set: ServerSet,
    signal: AbortSignal | undefined,
    resolve: (outcome: DnsOutcome<RecordData[T]>) => void,
    /** The query as encoded, under the ID of `#socket` once sent. */
    private message: Uint8Array,
    private readonly name: string,
    private readonly type: T,
  ) {
    super(set.policy, signal, resolve);
  }

  protected send(endpoint: number): void {
    const server = this.set.servers[endpoint]!;
    if (this.#overTcp) {
      this.#cancelTcp = exchangeOverTcp(server, this.message, this);
      return;
    }
    let socket = this.#socket;
    // A retry to the same server goes out again under the same ID, so a late answer to the first
    // still counts; another server's socket gives the query an ID of its own.
    if (!socket || socket.closed || socket.server !== server) {
      if (socket) {
        (this.#earlier ??= []).push({ socket, id: this.#id, message: this.message });
        this.message = this.message.slice();
      }
      socket = this.set.socketFor(endpoint);
      this.#socket = socket;
      this.#id = socket.register(this);
      writeId(this.message, this.#id);
    }
    socket.send(this.message);
  }

  received(response: Uint8Array, socket: ServerSocket): void {
    const query =
      socket === this.#socket
        ? this.message
        : this.#earlier?.find((sent) => sent.socket === socket)?.message;
    if (!query) return;
    const reading = readResponse(query, response, this.name, this.type);
    switch (reading) {
      case 'mismatch':
        // RFC 5452 §3: not the answer to this query (a forged or stray one); the answer may still come.
        return;
      case 'truncated':
        // RFC 1035 §4.2.1, RFC 7766 §5: the whole answer over TCP, within the same attempt's time.
        if (!this.#overTcp) {
          this.#overTcp = true;
          this.#cancelTcp = exchangeOverTcp(this.set.servers[this.endpoint]!, this.message, this);
        }
        return;
      case 'malformed':
        this.failed('bad-answer');
        return;
      default:
        this.settle(reading);
    }
  }

  answeredOverTcp(result: Uint8Array | 'no-answer' | 'bad-answer'): void {
    this.#cancelTcp = undefined;
    if (typeof result === 'string') {
      this.failed(result);
      return;
    }
    const reading = readResponse(this.message, result, this.name, this.type);
    // On its own connection, anything but the answer is a broken server.
    if (typeof reading === 'string') this.failed('bad-answer');
    else this.settle(reading);
  }

  unreachable(socket: ServerSocket): void {
    if (!this.#overTcp && socket === this.#socket) this.failed('no-answer');
  }

  protected abandonAttempt(): void {
    // The UDP sends keep their IDs until the query ends: a late answer to them still counts.
    this.#cancelTcp?.();
    this.#cancelTcp = undefined;
  }

  protected release(): void {
    this.abandonAttempt();
    this.#socket?.unregister(this.#id);
    for (const sent of this.#earlier ?? []) sent.socket.unregister(sent.id);
  }
}

export function createDgramTransport(options: DgramTransportOptions): DgramTransport {
  const nextId = createQueryIds();
  // node:dns read them from /etc/resolv.conf at start; read once, as c-ares did.
  const configured = options.servers.length > 0 ? options.servers : systemServers();
  let configuredSet: ServerSet | undefined;
  const namedSets = new LRUCache<string, ServerSet>({
    max: maxNamedServerSets,
    dispose: (set) => set.retire(),
  });
  let closed = false;

  function setOf(servers: readonly string[] | undefined): ServerSet {
    if (servers === undefined) {
      configuredSet ??= new ServerSet(
        parseServers(configured),
        configuredSocketsPerServer,
        options,
        nextId,
      );
      return configuredSet;
    }
    const key = servers.join(',');
    let set = namedSets.get(key);
    if (!set) {
      set = new ServerSet(parseServers(servers), 1, options, nextId);
      namedSets.set(key, set);
    }
    return set;
  }

  return {
    query<T extends RecordType>(
      name: string,
      type: T,
      queryOptions?: QueryOptions,
    ): Promise<DnsOutcome<RecordData[T]>> {
      if (closed) return Promise.resolve(timedOut);
      let message: Uint8Array;
      let set: ServerSet;
      try {
        message = encodeQuery(name, type, 0, udpPayloadBytes);
      } catch {
        // A name the wire cannot carry (a label over 63 octets): nothing is sent.
        return Promise.resolve(serverFailure);
      }
      try {
        set = setOf(queryOptions?.servers);
      } catch (error) {
        // A server address that is no address is a bug: it rejects, as it always did.
        return Promise.reject(error);
      }
      const signal = queryOptions?.signal;
      return new Promise((resolve) =>
        new UdpQuery(set, signal, resolve, message, name, type).start(),
      );
    },
    waiting() {
      let waiting = configuredSet?.waiting() ?? 0;
      for (const set of namedSets.values()) waiting += set.waiting();
      return waiting;
    },
    close() {
      closed = true;
      configuredSet?.close();
      for (const set of namedSets.values()) set.close();
      namedSets.clear();
    },
  };
}
