import { promises as dns } from 'node:dns';
import { LRUCache } from 'lru-cache';
import type {
  DnsOutcome,
  DnsStatus,
  QueryOptions,
  RecordData,
  RecordType,
  Resolver,
} from './resolver.js';

/**
 * The DNS transport on Node: c-ares through `node:dns`'s `Resolver`. Measured here at about twice
 * the speed and a quarter of the CPU per query of dns2's client. It has no cache of its own (c-ares'
 * query cache is off in Node), so `caching.ts` above it is the only one.
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

const lookups: { [T in RecordType]: Lookup } = {
  A: async (r, name) => withTtl(await r.resolve4(name, { ttl: true })),
  AAAA: async (r, name) => withTtl(await r.resolve6(name, { ttl: true })),
  PTR: async (r, name) => ({ records: await r.resolvePtr(name), ttl: unknownTtlSeconds }),
  // RFC 7208 §3.3: the character-strings of one TXT record are joined without spaces.
  TXT: async (r, name) => ({
    records: (await r.resolveTxt(name)).map((chunks) => chunks.join('')),
    ttl: unknownTtlSeconds,
  }),
  MX: async (r, name) => ({ records: await r.resolveMx(name), ttl: unknownTtlSeconds }),
  NS: async (r, name) => ({ records: await r.resolveNs(name), ttl: unknownTtlSeconds }),
  CNAME: async (r, name) => ({ records: await r.resolveCname(name), ttl: unknownTtlSeconds }),
};

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
    async query<T extends RecordType>(
      name: string,
      type: T,
      queryOptions?: QueryOptions,
    ): Promise<DnsOutcome<RecordData[T]>> {
      const resolver = resolverFor(queryOptions?.servers ?? options.servers);
      try {
        const { records, ttl } = await lookups[type](resolver, name);
        if (records.length === 0) return { status: 'nodata' };
        return { status: 'answer', records: records as RecordData[T][], ttl };
      } catch (error) {
        const { code, syscall } = error as NodeJS.ErrnoException;
        // Every c-ares failure names its query as `syscall`; other errors are bugs and propagate.
        if (syscall === undefined) throw error;
        return { status: statusByErrorCode[code ?? ''] ?? 'servfail' };
      }
    },
  };
}
