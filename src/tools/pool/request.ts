import { ApiError } from '../../http/index.js';
import { canonicalIpv6, isDottedQuad, parseIpv6 } from '../../lib/index.js';
import { readTarget, type TargetDeps } from '../common/index.js';

/** What a pool request names: the pool, and the addresses a check picks from its discover. */

/**
 * An address of a pool check as discovery stores it: a dotted quad as it is, IPv6 in RFC 5952
 * form (so `2001:DB8:0::1` is the `2001:db8::1` discovery found); undefined when it is neither.
 */
export function poolAddress(text: string): string | undefined {
  if (isDottedQuad(text)) return text;
  const ipv6 = parseIpv6(text);
  return ipv6 === undefined ? undefined : canonicalIpv6(ipv6);
}

/**
 * The pool's host name a request gives in `field`: a 400 `invalid_request` when it is missing,
 * `invalid_target` when it is no public host name (an address or a network says which tool takes
 * it instead).
 */
export function poolName(text: string | undefined, field: string, deps: TargetDeps): string {
  if (text === undefined) throw new ApiError('invalid_request', `${field} is required`);
  return readTarget('pool', text, deps).text;
}
