import {
  armWatchClock,
  armWatchClockOnce,
  changedAWatch,
  createEdgeApp,
  type EdgeApp,
  edgeAppFor,
  misconfigured,
  type WorkerEnv,
} from './workers/index.js';

/**
 * The Workers entry point (wrangler.toml): the whole API under BASE_PATH, as on Node, with the
 * store, the zone monitor and the watch clock in the Durable Objects exported below
 * (docs/edge.md).
 */

export {
  ReportDirectoryObject,
  ReportInboxObject,
  StoreObject,
  WatchClockObject,
  ZoneMonitorObject,
} from './workers/index.js';

export default {
  async fetch(request, env, ctx) {
    let app: EdgeApp;
    try {
      app = await edgeAppFor(env);
    } catch (error) {
      console.error(String(error));
      return misconfigured(error, request);
    }
    const response = await app.fetch(request, env, ctx);
    // A watch created or changed: its clock's alarm re-checks it when due (docs/watches.md); and
    // the first request of an isolate arms its clock, so watches go on after any restart.
    const arming = changedAWatch(request, response) ? armWatchClock(env) : armWatchClockOnce(env);
    if (arming) ctx.waitUntil(arming);
    return response;
  },

  /**
   * The Cron Trigger of wrangler.toml, once a minute, a backstop of the watch clock: claims the
   * watches and deliveries that are due, runs them, and arms the clock again (docs/watches.md,
   * "On Workers"). Claims are atomic in the store's Durable Objects, so the two never check a
   * watch twice. The event is an I/O context of its own, not a request's: it runs on an app of
   * its own, never the one the isolate's requests share (docs/edge.md, "One app per I/O owner").
   */
  async scheduled(_controller, env, ctx) {
    let app: EdgeApp;
    try {
      app = await createEdgeApp(env);
    } catch (error) {
      console.error(String(error));
      return;
    }
    ctx.waitUntil(Promise.all([app.tickWatches(), armWatchClock(env)]));
  },

  /**
   * Cloudflare Email Routing: a message sent to an address routed to this Worker, taken in as the
   * reports' (docs/edge.md, "Reports on Workers"); what the reports refuse is rejected, and a
   * failure thrown here is a temporary one the sender retries. An event of its own, so an app of
   * its own, as the Cron Trigger's.
   */
  async email(message, env) {
    const app = await createEdgeApp(env);
    await app.takeMail(message);
  },
} satisfies ExportedHandler<WorkerEnv>;
