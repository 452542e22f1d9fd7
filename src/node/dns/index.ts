/** DNS on Node: the c-ares transport, and a whole resolver over it for the tests and the bench. */

export { createNodeTransport, type NodeTransportOptions } from './node-transport.js';
export { createResolver, type ResolverOptions } from './resolver.js';
export {
  createDgramTransport,
  type DgramTransport,
  type DgramTransportOptions,
} from './dgram-transport.js';
export { createHttp2Exchanges, type Http2Exchanges } from './doh-session.js';
