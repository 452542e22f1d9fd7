/**
 * The DNS layer's face: the Resolver contract every transport and wrapper keeps, the DoH transport
 * (the one both runtimes can use) and how its exchanges are sent, the wrappers the services stack
 * on a transport, and what a transport of another runtime builds on: the wire codec, the reading
 * of a response, the attempts of a query (the UDP transport and HTTP/2 sessions: src/node/dns/).
 */

export {
  type DnsOutcome,
  type DnsStatus,
  type MxRecord,
  type OutcomeListener,
  type QueryOptions,
  type RecordData,
  type RecordType,
  type Resolver,
  recordsOf,
} from './resolver.js';
export { type Ask, askResolver, resolverOf } from './asking.js';
export { logUnreachable } from './back-off-log.js';
export { type CacheOptions, type CachingResolver, defaultCacheOptions } from './caching.js';
export { type QueryObserver, withObserver } from './observed.js';
export { withResolverStack } from './stack.js';
export { type UnreachableReport, withBackOff } from './back-off.js';
export { cleanDnsText, cleanShownText, withCleanAnswers } from './clean-answers.js';
export { withFreshAnswers } from './fresh.js';
export { createDohTransport, type DohTransportOptions } from './doh-transport.js';
export {
  dnsMessage,
  type DohExchange,
  type ExchangeReceiver,
  type ExchangeResult,
  fetchExchange,
  isDnsResponse,
} from './doh-exchange.js';
/** The chunks of a body as one message (src/lib/'s, for the DoH session on Node). */
export { joinChunks } from '../lib/index.js';
export { createEndpointFailover } from './endpoint-failover.js';
export {
  type AttemptFailure,
  type AttemptPolicy,
  attemptPolicy,
  PendingQuery,
} from './pending-query.js';
export { outcomeOf, readResponse } from './response-outcome.js';
export {
  decodeResponse,
  encodeQuery,
  MalformedMessageError,
  maxMessageBytes,
  messageId,
  writeId,
} from './wire.js';
export {
  createDohTlsaLookup,
  type DohTlsaOptions,
  encodeTlsaQuery,
  readTlsaAnswer,
  type TlsaData,
  type TlsaLookup,
  type TlsaOutcome,
} from './tlsa.js';
