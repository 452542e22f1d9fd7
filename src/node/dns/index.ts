/** DNS on Node: the c-ares transport, and a whole resolver over it for the tests and the bench. */

export { createNodeTransport, type NodeTransportOptions } from './node-transport.js';
export { createResolver, type ResolverOptions } from './resolver.js';
