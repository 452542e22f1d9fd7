import { type AddressRange, inAddressRanges, isPublicIpv4, isPublicIpv6 } from './lib/index.js';
import type { MailProbes } from './tools/index.js';

/**
 * The mail check's probes as a platform gives them (docs/mail.md, "Bounds and safety"): both
 * adapters build theirs with the one rule of where a probe may connect.
 */

export type { MailProbes };

/** SMTP_TIMEOUT_MS's default: where the runtime reads no such variable (Workers), the bound. */
export const defaultProbeTimeoutMs = 10_000;

/** A public address (the targets' RFC 6890 rules), or one PROBE_ALLOW_NETWORKS allows. */
export function probeReachable(
  allowNetworks: readonly AddressRange[],
): (address: string) => boolean {
  return (address) =>
    isPublicIpv4(address) || isPublicIpv6(address) || inAddressRanges(address, allowNetworks);
}
