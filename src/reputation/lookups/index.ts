/**
 * The DNS as one check asks it: its deadline, its bounded resolver, a host's public addresses,
 * canonical names.
 */

export { canonicalNameOf } from './canonical-name.js';
export { type CheckDns, createCheckDns } from './check-dns.js';
export { createDeadline, type Deadline } from './deadline.js';
export { noPublicAddress, publicAddressesOf, publicIpv4Of, publicIpv6Of } from './host-address.js';
