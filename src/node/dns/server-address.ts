import dns from 'node:dns';
import { isIP } from 'node:net';

/** A DNS server as `DNS_SERVERS` and `QueryOptions.servers` name it. */
export interface ServerAddress {
  host: string;
  port: number;
  family: 4 | 6;
}

/** RFC 1035 §4.2: the port DNS servers listen on. */
const dnsPort = 53;

/**
 * `ip`, `ip:port`, `[ipv6]` or `[ipv6]:port` (the forms `node:dns` `getServers()` writes), or
 * undefined for anything else.
 */
export function parseServerAddress(entry: string): ServerAddress | undefined {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  const [host, port] = bracketed
    ? [bracketed[1] ?? '', bracketed[2]]
    : isIP(entry)
      ? [entry, undefined]
      : (entry.split(':') as [string, string | undefined]);
  const family = isIP(host);
  const number = port === undefined ? dnsPort : Number(port);
  if (family === 0 || !(number > 0 && number < 65536)) return undefined;
  return { host, port: number, family: family as 4 | 6 };
}

/**
 * The system's resolvers, as Node's c-ares read them from /etc/resolv.conf at start (or as
 * `dns.setServers` last set them: read through the module, whose `getServers` that replaces).
 */
export function systemServers(): string[] {
  return dns.getServers();
}
