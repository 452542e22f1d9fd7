/**
 * The keys of the result cache (RESULT_TTL_S): the IP tool's checks and the reports' sources look
 * an address up under the same key (`targetOf('ip', ...)`'s text), so a source's reputation is the
 * IP check's cached result.
 */

/**
 * The cache key of a normalised request: after a lie is caught or a list comes back (the verdict
 * epoch grows), nothing cached before answers.
 */
export function resultCacheKey(requestKey: string, epoch: number): string {
  return epoch === 0 ? requestKey : `epoch ${epoch} ${requestKey}`;
}
