import { type EdgeApp, type WorkerEnv, createEdgeApp } from './app.js';

/**
 * The apps of one I/O owner, one per configuration: their caches (DNS answers, cards) outlive a
 * request. workerd ties every promise, timer, abort signal and fetch to the I/O context that made
 * it, and a Durable Object's context is not a request's: an app's DNS stack hands query slots and
 * in-flight queries from one caller to the next, so an app serves one owner and never another
 * (docs/edge.md, "One app per I/O owner"). The Worker's handlers hold one set (`edgeAppFor`), the
 * watch clock object its own (watch-clock-object.ts).
 */
export interface EdgeApps {
  appFor(env: WorkerEnv): Promise<EdgeApp>;
}

/** The configuration's variables (the env's strings, not its bindings), as one stable key. */
export function variablesOf(env: WorkerEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env)
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

export function createEdgeApps(): EdgeApps {
  const apps = new Map<string, Promise<EdgeApp>>();
  return {
    appFor(env) {
      const key = JSON.stringify(variablesOf(env));
      let app = apps.get(key);
      if (!app) {
        app = createEdgeApp(env);
        // A failed start is not kept: the next call tries again.
        app.catch(() => apps.delete(key));
        apps.set(key, app);
      }
      return app;
    },
  };
}

/** The apps of the Worker's fetch handler, one per isolate and configuration. */
const workerApps = createEdgeApps();

export function edgeAppFor(env: WorkerEnv): Promise<EdgeApp> {
  return workerApps.appFor(env);
}
