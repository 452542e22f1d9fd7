import { promises as dns } from 'node:dns';
import { LRUCache } from 'lru-cache';
import type {
  DnsOutcome,
  DnsStatus,
  QueryOptions,
  RecordData,
  RecordType,
  Resolver,
} from '../../src/dns/index.js';

/**
 * The service's former DNS transport on Node, c-ares through `node:dns`'s `Resolver`, kept as the
 * reference `bench/experiments/transport-cpu.ts` measures the UDP transport (src/node/dns/) against; why it
 * was retired: docs/decisions.md. It has no cache of its own (c-ares' query cache is off in
 * Node), so `src/dns/caching.ts` above it is the only one.
 */

export interface NodeTransportOptions {
  /** `ip` or `ip:port` entries; empty means the system resolvers. */
  servers: readonly string[];
  timeoutMs: number;
  retries: number;
}

/**
 * c-ares reports RCODEs as error codes. A server that cannot be reached (ECONNREFUSED from an ICMP
 * port-unreachable) gave no answer, which is what `timeout` means to the callers.
 */
const statusByErrorCode: Record<string, Exclude<DnsStatus, 'answer'>> = {
  ENOTFOUND: 'nxdomain',
  ENODATA: 'nodata',
  ESERVFAIL: 'servfail',
  EFORMERR: 'servfail',
  ENOTIMP: 'servfail',
  EBADRESP: 'servfail',
  EREFUSED: 'refused',
  ETIMEOUT: 'timeout',
  ECONNREFUSED: 'timeout',
  ECANCELLED: 'timeout',
};

/** TTL used for record types whose TTL `node:dns` does not expose (all but A and AAAA). */
const unknownTtlSeconds = 300;

type Lookup = (
  resolver: dns.Resolver,
  name: string,
) => Promise<{ records: unknown[]; ttl: number }>;

const unknownTtl = (records: unknown[]) => ({ records, ttl: unknownTtlSeconds });

// Promise chains rather than async functions: one promise fewer per query, every query of a check.
const lookups: { [T in RecordType]: Lookup } = {
  A: (r, name) => r.resolve4(name, { ttl: true }).then(withTtl),
  AAAA: (r, name) => r.resolve6(name, { ttl: true }).then(withTtl),
  PTR: (r, name) => r.resolvePtr(name).then(unknownTtl),
  // RFC 7208 §3.3: the character-strings of one TXT record are joined without spaces.
  TXT: (r, name) =>
    r.resolveTxt(name).then((records) => unknownTtl(records.map((chunks) => chunks.join('')))),
  MX: (r, name) => r.resolveMx(name).then(unknownTtl),
  NS: (r, name) => r.resolveNs(name).then(unknownTtl),
  CNAME: (r, name) => r.resolveCname(name).then(unknownTtl),
};

/** Every c-ares failure names its query as `syscall`; other errors are bugs and propagate. */
function failureOutcome(error: NodeJS.ErrnoException): DnsOutcome<never> {
  if (error.syscall === undefined) throw error;
  return { status: statusByErrorCode[error.code ?? ''] ?? 'servfail' };
}

function withTtl(records: { address: string; ttl: number }[]) {
  return {
    records: records.map((record) => record.address),
    ttl: Math.min(...records.map((record) => record.ttl)),
  };
}

/**
 * c-ares sends all of a channel's queries to one server from one UDP socket. With hundreds of
 * queries in flight, a burst of answers overflows that socket's receive buffer (about 208 KB by
 * default on Linux) and the kernel drops them: `npm run bench` measured RcvbufErrors and lost
 * listings at 32 checks in flight. The configured servers therefore get several channels, used
 * in turn, so a burst spreads over several sockets.
 */
const configuredServerChannels = 8;

interface Channels {
  resolvers: dns.Resolver[];
  next: number;
}

export function createNodeTransport(options: NodeTransportOptions): Resolver {
  // Pool discovery asks each pool's own name servers, one channel per server set, so the sets are
  // bounded rather than kept forever.
  const channelsBySet = new LRUCache<string, Channels>({ max: 256 });

  function newResolver(servers: readonly string[]): dns.Resolver {
    // c-ares `tries` counts the first attempt too.
    const resolver = new dns.Resolver({ timeout: options.timeoutMs, tries: options.retries + 1 });
    if (servers.length > 0) resolver.setServers([...servers]);
    return resolver;
  }

  function resolverFor(servers: readonly string[]): dns.Resolver {
    const key = servers.join(',');
    let channels = channelsBySet.get(key);
    if (!channels) {
      const count = servers === options.servers ? configuredServerChannels : 1;
      channels = { resolvers: Array.from({ length: count }, () => newResolver(servers)), next: 0 };
      channelsBySet.set(key, channels);
    }
    const resolver = channels.resolvers[channels.next]!;
    channels.next = (channels.next + 1) % channels.resolvers.length;
    return resolver;
  }

  return {
    query<T extends RecordType>(
      name: string,
      type: T,
      queryOptions?: QueryOptions,
    ): Promise<DnsOutcome<RecordData[T]>> {
      try {
        const resolver = resolverFor(queryOptions?.servers ?? options.servers);
        return lookups[type](resolver, name).then(
          ({ records, ttl }): DnsOutcome<RecordData[T]> =>
            records.length === 0
              ? { status: 'nodata' }
              : { status: 'answer', records: records as RecordData[T][], ttl },
          failureOutcome,
        );
      } catch (error) {
        // A bad server or name is a bug: it rejects, as every other failure of a query does.
        return Promise.reject(error);
      }
    },
  };
}
