import cluster from 'node:cluster';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createApp } from './app.js';
import { createLogger } from './lib/index.js';
import {
  compressResponses,
  createNodeServices,
  failStart,
  limitConnections,
  listenFailureLine,
  openReportStore,
  openStore,
  reportsLocation,
  readConfig,
  serverOptions,
  startupFailureLine,
  startWarnings,
  superviseWorkers,
  uncappedPeers,
} from './node/index.js';
import { corsHeaders } from './http/index.js';

/** The Node entry point: read the configuration, build the services, serve, stop gracefully. */

/** A step of the start that may fail for want of something: its failure is one line and exit 1. */
async function orFail<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    return failStart(startupFailureLine(error));
  }
}

const config = await orFail(() => readConfig(process.env));
const logSink = (line: string) => process.stdout.write(`${line}\n`);
const log = createLogger(config.logLevel, logSink);
// Once per start (the primary's, with WORKERS=N), at `warn` with what else the operator should act
// on (failed deliveries, a relay that fails at start): the service works, so it is no `error`.
if (cluster.isPrimary) {
  for (const warning of startWarnings(config)) log('warn', warning.message, warning.fields);
}
if (config.workers > 1 && cluster.isPrimary) {
  // Opened once here: a bad STORE_URL or REPORTS_URL is one line, not one per worker, and the
  // schemas are migrated before the workers open them. Then the primary only supervises
  // (src/node/cluster.ts).
  const store = await orFail(() => openStore(config.store));
  await store.close();
  const reports = await orFail(() => openReportStore(reportsLocation(config)));
  await reports.close();
  await superviseWorkers(config.workers, log);
}
const services = await orFail(() => createNodeServices(config, logSink));
const app = createApp({
  ...services,
  config,
  peerAddress: (c) => getConnInfo(c).remote.address ?? '',
  compression: compressResponses(),
});

// The first card of a thread pays about half a second of loading (fonts, renderers): done now, in
// the card threads, so neither the first share nor any other request waits for it. A failure is
// not fatal: cards would then fail on their own routes.
services.warmUpCards().catch((error: unknown) => {
  log('error', 'card warm-up failed', { error: String(error) });
});

const listener = serve(
  {
    fetch: app.fetch,
    port: config.port,
    hostname: config.host,
    serverOptions: serverOptions(config.connections),
  },
  (info) => {
    // RFC 3986 §3.2.2: an IPv6 literal in a URL is written in brackets.
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    log('info', 'listening', {
      url: `http://${host}:${info.port}${config.basePath}`,
      configured: services.isConfigured(),
      zones: services.zones.length,
      ...(cluster.isWorker ? { worker: cluster.worker?.id } : {}),
    });
  },
);
// serve() makes a plain node:http server unless given another createServer.
const server = listener as Server;
// A port that is taken or may not be bound, or a HOST that is not this machine's, is reported
// asynchronously as the server's `error`: one line, not an unhandled 'error' event's stack.
const failToListen = (error: Error) => void failStart(listenFailureLine(error, config));
server.once('error', failToListen);
server.once('listening', () => server.off('error', failToListen));
limitConnections(
  server,
  {
    max: config.connections.max,
    maxPerClient: config.connections.maxPerClient,
    uncapped: uncappedPeers(config.trustProxy),
  },
  log,
  corsHeaders(config.corsOrigins),
  services.connectionRefused,
);

/**
 * Responses not yet sent. `server.close()` stops accepting connections but leaves kept-alive ones
 * open, and they go on carrying new requests; answering with `Connection: close` once stopping
 * ends each connection after its current response, so the process exits as soon as the last one
 * is out instead of when clients let go.
 */
const pendingResponses = new Set<ServerResponse>();
let stopping = false;
server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
  if (stopping) response.setHeader('Connection', 'close');
  pendingResponses.add(response);
  response.once('close', () => pendingResponses.delete(response));
});

/** Stop accepting, let in-flight requests finish, then exit; give up after 10 s. */
function shutdown(signal: string): void {
  // A cluster worker may get both the terminal's SIGINT and the primary's SIGTERM.
  if (stopping) return;
  log('info', 'shutting down', { signal });
  stopping = true;
  services.stopMonitor();
  for (const response of pendingResponses) {
    if (!response.headersSent) response.setHeader('Connection', 'close');
  }
  // The store last: in-flight requests still write their results and counters, the watch
  // checks and deliveries under way their state, and the mail doors the reports they are taking.
  const watchesStopped = Promise.all([
    services.stopWatches(),
    services.stopReportPurge(),
    services.stopAutoWatch(),
    services.stopMailDoors(),
  ]);
  server.close(() => {
    watchesStopped
      .then(() => Promise.all([services.store.close(), services.reports.store.close()]))
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
  setTimeout(() => process.exit(1), 10_000).unref();
}
// Once listening: before that nothing is in flight, and a worker whose start failed is stopped
// by the primary's SIGTERM without a graceful stop of a server that never ran.
server.once('listening', () => {
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
});
