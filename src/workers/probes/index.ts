import type { AddressRange } from '../../lib/index.js';
import { createDohTlsaLookup } from '../../dns/index.js';
import { defaultProbeTimeoutMs, type MailProbes, probeReachable } from '../../reputation/index.js';
import { createFetchPolicyFetcher } from './policy-fetch.js';

export { createFetchPolicyFetcher, type FetchPolicyOptions } from './policy-fetch.js';

export interface WorkersProbeSettings {
  /** PROBE_ALLOW_NETWORKS. */
  allowNetworks: readonly AddressRange[];
  /** PROBE_HTTPS_PORT. */
  httpsPort: number;
  /** DOH_URL: where TLSA is asked. */
  dohUrls: readonly string[];
  /** DNS_TIMEOUT_MS. */
  dnsTimeoutMs: number;
  /** TLSA lookups one check may send over the isolate's few connections. */
  tlsaPerCheck: number;
}

/**
 * The mail check's probes on Workers (docs/mail.md): TCP to port 25 is not allowed there, so
 * every MX host reads `not_probed` with that reason; the MTA-STS policy over `fetch`; TLSA with
 * the AD bit over DoH to DOH_URL (RFC 8484 carries the whole message, header bits included).
 */
export function createWorkersProbes(settings: WorkersProbeSettings): MailProbes {
  const reachable = probeReachable(settings.allowNetworks);
  return {
    reachable,
    timeoutMs: defaultProbeTimeoutMs,
    smtp: { unavailable: 'TCP to port 25 is not allowed on Cloudflare Workers' },
    policy: createFetchPolicyFetcher({
      port: settings.httpsPort,
      timeoutMs: defaultProbeTimeoutMs,
      reachable,
    }),
    tlsa: createDohTlsaLookup({
      endpoints: settings.dohUrls,
      timeoutMs: settings.dnsTimeoutMs,
      maxPerCheck: settings.tlsaPerCheck,
    }),
  };
}
