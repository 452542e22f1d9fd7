/**
 * Which of several endpoints (DoH URLs, or the DNS servers a UDP query may go to) to ask: the
 * one that answered last. Every query starts at the current endpoint; an attempt that gets no
 * usable answer moves everyone on to the next one, so an endpoint that is down costs one failed
 * attempt, not one per query. Failover rather than
 * rotation keeps the answers of one check coming from one resolver (docs/edge.md).
 */
export interface EndpointFailover {
  /** The endpoint the next attempt goes to. */
  current(): number;
  /**
   * Reports that an attempt at `endpoint` failed. Only the first report about the current endpoint
   * moves on: the other queries that were in flight to it must not skip the next one as well.
   */
  failed(endpoint: number): void;
}

export function createEndpointFailover(count: number): EndpointFailover {
  if (count < 1) throw new Error('a transport needs at least one endpoint');
  let current = 0;
  return {
    current: () => current,
    failed(endpoint) {
      if (endpoint === current) current = (current + 1) % count;
    },
  };
}
