/**
 * The mail check's probes on Node: SMTP with STARTTLS, the MTA-STS policy over HTTPS, TLSA with
 * the AD bit over UDP (docs/mail.md), and the one set built from the configuration.
 */

export {
  createNodeProbes,
  ehloName,
  maxConcurrentProbes,
  neutralEhloName,
  type NodeProbeSettings,
} from './node-probes.js';
export { createPolicyFetcher, maxPolicyBytes, type PolicyFetchOptions } from './policy-fetch.js';
export { createSmtpProber, greetingBoundMs, type SmtpProbeOptions } from './smtp-probe.js';
export { maxReplyBytes } from './smtp-reply.js';
export { createTlsaLookup, type DnsServerAddress, type TlsaLookupOptions } from './tlsa-lookup.js';
