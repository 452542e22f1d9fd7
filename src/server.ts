import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createApp } from './app.js';
import { readConfig } from './config.js';
import { createLogger } from './http/log.js';
import { createServices } from './services.js';

/** The Node entry point: read the configuration, build the services, serve, stop gracefully. */

let config;
try {
  config = readConfig(process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const log = createLogger(config.logLevel, (line) => process.stdout.write(`${line}\n`));
const services = await createServices(config, log);
const app = createApp({
  ...services,
  config,
  clock: () => new Date(),
  log,
  peerAddress: (c) => getConnInfo(c).remote.address ?? '',
});

const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  log('info', 'listening', {
    url: `http://${info.address}:${info.port}${config.basePath}`,
    configured: services.isConfigured(),
    zones: services.zones.length,
  });
});

/** Stop accepting, let in-flight requests finish, then exit; give up after 10 s. */
function shutdown(signal: string): void {
  log('info', 'shutting down', { signal });
  services.monitor.stop();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(1), 10_000).unref();
}
process.once('SIGTERM', () => shutdown('SIGTERM'));
process.once('SIGINT', () => shutdown('SIGINT'));
