/**
 * The bottom layer: what every feature folder uses and none owns. Addresses (IPv4 and IPv6 text
 * forms, which are public, CIDR ranges, special-use names), the structured log, byte encodings,
 * the hashes keys are kept as, and the one cleaning of third-party text. It imports no folder of
 * `src/` (docs/layout.md).
 */

export {
  type Address,
  type AddressRange,
  addressPrefix,
  callerNetwork,
  inAddressRanges,
  parseAddress,
  parseAddressRange,
  parseAddressRanges,
  rangeHolds,
} from './address-ranges.js';
export { readBounded } from './bounded-read.js';
export { certificateNamesCover } from './certificate-names.js';
export { type CsvCell, csvDocument, csvField } from './csv.js';
export { base64, base64url, hex, joinChunks, utf8 } from './encodings.js';
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
export { createLogger, type Logger, type LogLevel } from './log.js';
export { batchedRandomBytes } from './random-batch.js';
export { type Digest, hashOf, type RandomBytes, sameHash } from './secrets.js';
export { isSpecialUseName, specialUseSuffix } from './special-use-names.js';
export {
  cleanThirdPartyText,
  replaceUnsafeCharacters,
  thirdPartyTextChars,
} from './third-party-text.js';
