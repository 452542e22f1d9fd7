import type { SmtpProbe } from '../../results/index.js';

/** The words every probe refused for the service's capacity begins with. */
export const capacityShortage = 'the service’s probe capacity is in use';

/** The words every probe refused for a destination's bound begins with. */
export const destinationBound = 'the service’s bound on probes to this destination is reached';

/**
 * A probe not made for the service's own limits, its capacity (`shareProbes`) or a destination's
 * bound (`boundProbes`): not a finding about the server.
 */
export function isCapacityShortage(probe: SmtpProbe): boolean {
  return serviceLimitOf(probe) !== undefined;
}

/** Which of the service's limits left a probe unmade (its reason's first words), if any. */
export function serviceLimitOf(probe: SmtpProbe): string | undefined {
  if (probe.status !== 'not_probed') return undefined;
  const detail = probe.detail ?? '';
  return [capacityShortage, destinationBound].find((limit) => detail.startsWith(limit));
}
