import { isIPv4, isIPv6 } from 'node:net';
import type { AddressRange } from '../../lib/index.js';
import {
  type MailProbes,
  probeReachable,
  probeSlots,
  type TlsaLookup,
} from '../../reputation/index.js';
import { createPolicyFetcher } from './policy-fetch.js';
import { createSmtpProber } from './smtp-probe.js';
import { createTlsaLookup, type DnsServerAddress } from './tlsa-lookup.js';

/**
 * The mail check's probes on Node (docs/mail.md, "The API"): SMTP on PROBE_SMTP_PORT, the MTA-STS
 * policy on PROBE_HTTPS_PORT, each stage within SMTP_TIMEOUT_MS, to public addresses or
 * PROBE_ALLOW_NETWORKS; TLSA with the AD bit over UDP to the resolvers the service asks, or over
 * DoH (`dohTlsa`, built on the DNS transport's own HTTP/2 sessions).
 */

/**
 * Probes one process runs at once, every check together (`probeSlots`, shared fairly by
 * `shareProbes`); past it a probe is `not_probed`, so a burst cannot open sockets without bound.
 */
export const maxConcurrentProbes = probeSlots;

export interface NodeProbeSettings {
  /** PROBE_ALLOW_NETWORKS. */
  allowNetworks: readonly AddressRange[];
  /** SMTP_TIMEOUT_MS. */
  timeoutMs: number;
  /** PROBE_SMTP_PORT. */
  smtpPort: number;
  /** PROBE_HTTPS_PORT. */
  httpsPort: number;
  /** PUBLIC_URL: its host is the EHLO name. */
  publicUrl: string | undefined;
  /** The resolvers TLSA is asked over UDP; empty over DoH, where `dohTlsa` asks. */
  tlsaServers: readonly DnsServerAddress[];
  /** DNS_TIMEOUT_MS: a TLSA query's bound over UDP. */
  dnsTimeoutMs: number;
  /** TLSA over the DoH transport's sessions, when the service resolves over DoH. */
  dohTlsa?: TlsaLookup;
}

export function createNodeProbes(settings: NodeProbeSettings): MailProbes {
  const reachable = probeReachable(settings.allowNetworks);
  const { timeoutMs } = settings;
  const tlsa =
    settings.dohTlsa ??
    (settings.tlsaServers.length > 0
      ? createTlsaLookup({ servers: settings.tlsaServers, timeoutMs: settings.dnsTimeoutMs })
      : undefined);
  return {
    reachable,
    timeoutMs,
    smtp: createSmtpProber({
      port: settings.smtpPort,
      timeoutMs,
      reachable,
      ehloName: ehloName(settings.publicUrl),
      maxConcurrent: maxConcurrentProbes,
    }),
    policy: createPolicyFetcher({ port: settings.httpsPort, timeoutMs, reachable }),
    ...(tlsa ? { tlsa } : {}),
  };
}

/**
 * The EHLO name when PUBLIC_URL is unset: a name of the reserved `.invalid` top-level domain
 * (RFC 6761 §6.4), shaped as a host name so servers that want a dotted name take it, and saying
 * nothing of the machine the service runs on (its host name would tell every probed server).
 */
export const neutralEhloName = 'reputation-probe.invalid';

/**
 * The name the probe gives in EHLO (RFC 5321 §4.1.1.1: the client's own host name, or an address
 * literal, §4.1.3): PUBLIC_URL's host when set, the name the service is known by; else a neutral
 * name, never the machine's.
 */
export function ehloName(publicUrl: string | undefined): string {
  if (!publicUrl) return neutralEhloName;
  const host = new URL(publicUrl).hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIPv4(host)) return `[${host}]`;
  if (isIPv6(host)) return `[IPv6:${host}]`;
  return host;
}
