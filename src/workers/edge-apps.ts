import { type EdgeApp, type WorkerEnv, createEdgeApp } from './app.js';

/**
 * One app per isolate and configuration: its caches (DNS answers, cards) outlive a request. The
 * Worker's handlers and the watch clock's alarm (watch-clock-object.ts) share them.
 */
const apps = new Map<string, Promise<EdgeApp>>();

/** The configuration's variables (the env's strings, not its bindings), as one stable key. */
export function variablesOf(env: WorkerEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env)
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

export function edgeAppFor(env: WorkerEnv): Promise<EdgeApp> {
  const key = JSON.stringify(variablesOf(env));
  let app = apps.get(key);
  if (!app) {
    app = createEdgeApp(env);
    // A failed start is not kept: the next request tries again.
    app.catch(() => apps.delete(key));
    apps.set(key, app);
  }
  return app;
}
