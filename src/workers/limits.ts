/**
 * Workers' limits as the edge build applies them (docs/edge.md, from Cloudflare's limits page).
 */

/** A request (or Durable Object event) keeps at most six connections open at once: more only queue. */
export const edgeMaxInFlight = 6;

/** Drawn cards an isolate keeps (its memory is 128 MB): about 150 cards of 35-65 KB. */
export const edgeCardCacheBytes = 8 * 1024 * 1024;
