import { hostname } from 'node:os';
import { isIPv4, isIPv6 } from 'node:net';
import { type MailProbes, probeReachable } from '../mail-probes.js';
import type { TlsaLookup } from '../reputation/index.js';
import type { NodeConfig } from './config.js';
import { parseServerAddress, systemServers } from './dns/index.js';
import {
  createPolicyFetcher,
  createSmtpProber,
  createTlsaLookup,
  type DnsServerAddress,
} from './mail/index.js';

/**
 * The mail check's probes on Node (docs/mail.md, "The API"), from the configuration: SMTP on
 * PROBE_SMTP_PORT, the MTA-STS policy on PROBE_HTTPS_PORT, each stage within SMTP_TIMEOUT_MS, to
 * public addresses or PROBE_ALLOW_NETWORKS; TLSA with the AD bit over UDP to the resolvers the
 * service asks, or over DoH (`dohTlsa`, built on the DNS transport's own HTTP/2 sessions).
 */

/**
 * Probes one process runs at once, every check together: 8 checks of 5 MX hosts. Past it a probe
 * is `not_probed` ("the service is probing ... already"), so a burst cannot open sockets without
 * bound.
 */
export const maxConcurrentProbes = 40;

export function nodeMailProbes(config: NodeConfig, dohTlsa?: TlsaLookup): MailProbes {
  const reachable = probeReachable(config.mail.probeAllowNetworks);
  const timeoutMs = config.smtp.timeoutMs;
  const doh = config.dns.transport === 'doh';
  const tlsaServers = doh
    ? []
    : (config.dns.servers.length > 0 ? config.dns.servers : systemServers())
        .map(parseServerAddress)
        .filter((server): server is DnsServerAddress => server !== undefined);
  return {
    reachable,
    timeoutMs,
    smtp: createSmtpProber({
      port: config.smtp.port,
      timeoutMs,
      reachable,
      ehloName: ehloName(config.publicUrl),
      maxConcurrent: maxConcurrentProbes,
    }),
    policy: createPolicyFetcher({ port: config.mail.probeHttpsPort, timeoutMs, reachable }),
    ...(doh
      ? dohTlsa
        ? { tlsa: dohTlsa }
        : {}
      : tlsaServers.length > 0
        ? { tlsa: createTlsaLookup({ servers: tlsaServers, timeoutMs: config.dns.timeoutMs }) }
        : {}),
  };
}

/**
 * The name the probe gives in EHLO (RFC 5321 §4.1.1.1: the client's own host name, or an address
 * literal, §4.1.3): PUBLIC_URL's host when set, the name the service is known by; else the
 * machine's name.
 */
export function ehloName(publicUrl: string | undefined): string {
  const host = publicUrl ? new URL(publicUrl).hostname.replace(/^\[(.*)\]$/, '$1') : hostname();
  if (isIPv4(host)) return `[${host}]`;
  if (isIPv6(host)) return `[IPv6:${host}]`;
  return host;
}
