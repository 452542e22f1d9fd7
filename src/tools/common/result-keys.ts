import type { Target } from '../../reputation/index.js';

/**
 * The keys of the result cache (RESULT_TTL_S): the IP tool's checks and the reports' sources look
 * an address up under the same key, so a source's reputation is the IP check's cached result.
 */

/**
 * The cache key of a normalised request: after a lie is caught or a list comes back (the verdict
 * epoch grows), nothing cached before answers.
 */
export function resultCacheKey(requestKey: string, epoch: number): string {
  return epoch === 0 ? requestKey : `epoch ${epoch} ${requestKey}`;
}

/** The IP tool's request: an address in its canonical form (every spelling of one IPv6 address is one request), or a host name. */
export function ipRequestKey(target: Target): string {
  return target.kind === 'domain' ? target.name : target.address;
}
