import { boundProbes, destinationBounds, type ProbeCounters } from './bounds.js';
import { type CachedProbes, cacheProbes, probeCacheMs } from './cache.js';
import type { MailProbes } from './contract.js';
import type { ProbeLeases, ShareFleet } from './fleet-shares.js';
import { defaultProbeShares, probeSlots, shareProbes } from './shares.js';

/**
 * What the service's probes count in, passed in: the service's store (the destinations' counters,
 * the shares' leases), the caller ids it is stored under, random bytes for the leases' names.
 */
export interface ProbeFleet extends Omit<ShareFleet, 'leases'> {
  store: ProbeCounters & ProbeLeases;
}

/**
 * The service's probes, one set for the mail tool and the mail watches together: a probe takes a
 * slot of its share first, is then counted against its destination's bounds (a probe refused a
 * slot is not counted), and the mail tool's are answered from the probe cache (`cacheProbes`).
 */
export function serviceProbes(
  probes: MailProbes,
  fleet: ProbeFleet,
  now: () => number,
): CachedProbes {
  const bounded = boundProbes(probes, fleet.store, destinationBounds);
  const shared = shareProbes(bounded, defaultProbeShares(probeSlots), {
    leases: fleet.store,
    idOf: fleet.idOf,
    randomBytes: fleet.randomBytes,
  });
  return cacheProbes(shared, probeCacheMs, now);
}
