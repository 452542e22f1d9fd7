/**
 * The DNS layer's face: the Resolver contract every transport and wrapper keeps, the DoH transport
 * (the one both runtimes can use), the wrappers the services stack on a transport, and the wire
 * codec a transport of another runtime builds on (c-ares and the Node stack: src/node/dns/).
 */

export {
  type DnsOutcome,
  type DnsStatus,
  type MxRecord,
  type QueryOptions,
  type RecordData,
  type RecordType,
  type Resolver,
  recordsOf,
} from './resolver.js';
export { type CacheOptions, type CachingResolver, defaultCacheOptions } from './caching.js';
export { type QueryObserver, withObserver } from './observed.js';
export { withResolverStack } from './stack.js';
export { withFreshAnswers } from './fresh.js';
export { createDohTransport } from './doh-transport.js';
export { outcomeOf } from './response-outcome.js';
export { decodeResponse, encodeQuery, MalformedMessageError, maxMessageBytes } from './wire.js';
