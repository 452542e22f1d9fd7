import { ApiError } from '../../http/index.js';
import { canonicalIpv6, isDottedQuad, parseIpv6 } from '../../lib/index.js';
import { targetOf } from '../../reputation/index.js';

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

export function poolName(text: string | undefined, field: string): string {
  if (text === undefined) throw new ApiError('invalid_request', `${field} is required`);
  const parsed = targetOf('pool', text);
  if (!parsed.ok) throw new ApiError('invalid_target', parsed.reason);
  return parsed.text;
}
