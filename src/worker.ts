import { type EdgeApp, type WorkerEnv, createEdgeApp, misconfigured } from './workers/index.js';

/**
 * The Workers entry point (wrangler.toml): the whole API under BASE_PATH, as on Node, with the
 * store and the zone monitor in the Durable Objects exported below (docs/edge.md).
 */

export { StoreObject } from './workers/index.js';
export { ZoneMonitorObject } from './workers/index.js';

/** One app per isolate and configuration: its caches (DNS answers, cards) outlive a request. */
const apps = new Map<string, Promise<EdgeApp>>();

function variablesOf(env: WorkerEnv): string {
  return JSON.stringify(
    Object.entries(env)
      .filter(([, value]) => typeof value === 'string')
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

function appFor(env: WorkerEnv): Promise<EdgeApp> {
  const key = variablesOf(env);
  let app = apps.get(key);
  if (!app) {
    app = createEdgeApp(env);
    // A failed start is not kept: the next request tries again.
    app.catch(() => apps.delete(key));
    apps.set(key, app);
  }
  return app;
}

export default {
  async fetch(request, env, ctx) {
    let app: EdgeApp;
    try {
      app = await appFor(env);
    } catch (error) {
      console.error(String(error));
      return misconfigured(error, request);
    }
    return app.fetch(request, env, ctx);
  },

  /**
   * The Cron Trigger of wrangler.toml, once a minute: claims the watches and deliveries that are
   * due and runs them (docs/watches.md, "On Workers"). Claims are atomic in the store's Durable
   * Objects, so overlapping runs never check a watch twice.
   */
  async scheduled(_controller, env, ctx) {
    let app: EdgeApp;
    try {
      app = await appFor(env);
    } catch (error) {
      console.error(String(error));
      return;
    }
    ctx.waitUntil(app.services.watches.runner.tick());
  },
} satisfies ExportedHandler<WorkerEnv>;
