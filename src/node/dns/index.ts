/**
 * DNS on Node: the UDP transport (node:dgram), DoH over HTTP/2 sessions, the one DNS_TRANSPORT
 * picks, and a whole resolver over it for the tests and the bench.
 */

export {
  createDgramTransport,
  type DgramTransport,
  type DgramTransportOptions,
} from './dgram-transport.js';
export { createHttp2Exchanges, type Http2Exchanges } from './doh-session.js';
export { createNodeDns, type NodeDns, type NodeDnsOptions } from './node-dns.js';
export { createResolver, type ResolverOptions } from './resolver.js';
export { parseServerAddress, systemServers } from './server-address.js';
