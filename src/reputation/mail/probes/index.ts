/**
 * The mail check's probes (docs/mail.md, "Bounds and safety"): the contract a runtime gives them
 * by, where they may connect, and the service's policy over them: fair shares of the slots,
 * bounds per destination, the probe cache.
 */

export {
  defaultProbeTimeoutMs,
  type MailProbes,
  notProbed,
  type PolicyFetcher,
  type PolicyFetchRequest,
  type PolicyFetchResult,
  type ProbeParty,
  type ProbeReach,
  probeMarginMs,
  type SmtpProber,
  type SmtpProbeRequest,
  type TlsaAnswer,
  type TlsaLookup,
} from './contract.js';
export { isPublicAddress, probeReachable, reachableBy } from './reach.js';
export {
  capacityShortage,
  destinationBound,
  isCapacityShortage,
  serviceLimitOf,
} from './service-limits.js';
export { defaultProbeShares, type ProbeShareLimits, probeSlots, shareProbes } from './shares.js';
export { boundProbes, destinationBounds, type ProbeCounters } from './bounds.js';
export { type CachedProbes, cacheProbes, probeCacheMs } from './cache.js';
export { type ProbeLeases, probeLeaseMs, type ShareFleet } from './fleet-shares.js';
export { type ProbeFleet, serviceProbes } from './service-probes.js';
