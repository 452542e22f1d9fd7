import { boundProbes, destinationBounds, type ProbeCounters } from './bounds.js';
import { type CachedProbes, cacheProbes, probeCacheMs } from './cache.js';
import type { MailProbes } from './contract.js';
import { defaultProbeShares, probeSlots, shareProbes } from './shares.js';

/**
 * The service's probes, one set for the mail tool and the mail watches together: a probe takes a
 * slot of its share first, is then counted against its destination's bounds (a probe refused a
 * slot is not counted), and the mail tool's are answered from the probe cache (`cacheProbes`).
 */
export function serviceProbes(
  probes: MailProbes,
  counters: ProbeCounters,
  now: () => number,
): CachedProbes {
  const bounded = boundProbes(probes, counters, destinationBounds);
  return cacheProbes(shareProbes(bounded, defaultProbeShares(probeSlots)), probeCacheMs, now);
}
