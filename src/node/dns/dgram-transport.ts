import { LRUCache } from 'lru-cache';
import {
  encodeQuery,
  type OutcomeListener,
  type QueryOptions,
  type RecordData,
  type RecordType,
  type Resolver,
  resolverOf,
} from '../../dns/index.js';
import { createQueryIds } from './query-ids.js';
import { SendBatch } from './send-batch.js';
import { systemServers } from './server-address.js';
import { parseServers, ServerSet } from './server-set.js';
import { UdpQuery } from './udp-query.js';

/**
 * The DNS transport on Node: queries over UDP on `node:dgram`, encoded and read by the codec of
 * src/dns/wire.ts, TCP for an answer that did not fit (docs/decisions.md says why not c-ares).
 * Per query: one message encoded, one timer, one ID on a long-lived socket, and no promise when it
 * is asked through `ask`; an answer is read from its header alone unless it holds records;
 * nothing is thrown.
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

export function createDgramTransport(options: DgramTransportOptions): DgramTransport {
  const nextId = createQueryIds();
  // One batch for every server and socket: a check's fan-out goes out in one burst.
  const batch = new SendBatch();
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
        batch,
      );
      return configuredSet;
    }
    const key = servers.join(',');
    let set = namedSets.get(key);
    if (!set) {
      set = new ServerSet(parseServers(servers), 1, options, nextId, batch);
      namedSets.set(key, set);
    }
    return set;
  }

  function ask<T extends RecordType>(
    name: string,
    type: T,
    queryOptions: QueryOptions | undefined,
    listener: OutcomeListener<RecordData[T]>,
  ): void {
    if (closed) {
      listener.answered(timedOut);
      return;
    }
    let message: Uint8Array;
    let set: ServerSet;
    try {
      message = encodeQuery(name, type, 0, udpPayloadBytes);
    } catch {
      // A name the wire cannot carry (a label over 63 octets): nothing is sent.
      listener.answered(serverFailure);
      return;
    }
    try {
      set = setOf(queryOptions?.servers);
    } catch (error) {
      // A server address that is no address is a bug: it fails, as it always did.
      listener.failed(error);
      return;
    }
    new UdpQuery(set, queryOptions?.signal, listener, message, name, type).start(
      queryOptions?.timeoutMs,
    );
  }

  return {
    ...resolverOf(ask),
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
