/**
 * The mail check's probes on Node: SMTP with STARTTLS, and the MTA-STS policy over HTTPS
 * (docs/mail.md).
 */

export { createPolicyFetcher, maxPolicyBytes, type PolicyFetchOptions } from './policy-fetch.js';
export { createSmtpProber, type SmtpProbeOptions } from './smtp-probe.js';
export { maxReplyBytes } from './smtp-reply.js';
export { createTlsaLookup, type DnsServerAddress, type TlsaLookupOptions } from './tlsa-lookup.js';
