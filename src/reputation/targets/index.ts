/** What is checked: IPv4 and IPv6 addresses and host names, parsed, judged public or not, shown. */

export {
  compareIpv4,
  ipv4ToNumber,
  isDottedQuad,
  isPublicIpv4,
  isPublicNetwork,
  numberToIpv4,
  reversedOctets,
} from './ipv4.js';
export {
  bigIntToIpv6,
  canonicalIpv6,
  compareIpv6,
  ipv6ToBigInt,
  isIpv6,
  isIpv6Text,
  isPublicIpv6,
  isPublicIpv6Network,
  parseIpv6,
  reversedNibbles,
} from './ipv6.js';
export {
  displayName,
  isHostName,
  isSpecialUseName,
  parseHostName,
  parseTarget,
  type Target,
} from './targets.js';
