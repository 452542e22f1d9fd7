/**
 * Workers' limits as the edge build applies them (docs/edge.md, from Cloudflare's limits page).
 */

/** A request (or Durable Object event) keeps at most six connections open at once: more only queue. */
export const edgeMaxInFlight = 6;

/**
 * Of those, one blocklist holds at most two: a list that stops answering then delays the others
 * of a pool check by no more than two slots' worth (src/dns/zone-limit.ts).
 */
export const edgeMaxInFlightPerList = 2;

/**
 * A mail check's TLSA lookups (DANE) on the wire at once: each is a `fetch` beside the check's
 * six DNS queries and its MTA-STS policy, and past six connections the runtime only queues them,
 * while the queries' timers run. One at a time keeps the connections the check makes to eight.
 */
export const edgeTlsaPerCheck = 1;

/** Drawn cards an isolate keeps (its memory is 128 MB): about 150 cards of 35-65 KB. */
export const edgeCardCacheBytes = 8 * 1024 * 1024;
