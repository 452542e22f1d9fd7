/**
 * The Node adapter's face for the entry point (src/server.ts) and the bench: configuration,
 * services, the HTTP server's limits and compression, the cluster, stores, DNS, card drawing, and
 * the one line of a failed start.
 */

export { createCardRenderer, readCardFonts } from './cards/index.js';
export { superviseWorkers } from './cluster.js';
export { compressResponses } from './compression.js';
export { startWarnings } from '../config/index.js';
export { readConfig, reportsLocation } from './config.js';
export { uncappedPeers } from './client-connections.js';
export { limitConnections, serverOptions } from './connections.js';
export { createResolver } from './dns/index.js';
export { cardCacheBytes } from './platform.js';
export { createNodeServices } from './services.js';
export { failStart, listenFailureLine, startupFailureLine } from './startup-failure.js';
export { openReportStore } from './reports/index.js';
export { openRedisStore, openSqliteStore, openStore } from './store/index.js';
