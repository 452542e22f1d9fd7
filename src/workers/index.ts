/**
 * The Workers adapter's face for the entry point (src/worker.ts): the app per isolate and the
 * Durable Objects.
 */

export { createEdgeApp, type EdgeApp, misconfigured, type WorkerEnv } from './app.js';
export { ZoneMonitorObject } from './monitor-object.js';
export { ReportDirectoryObject, ReportInboxObject } from './reports/index.js';
export { StoreObject } from './store-object.js';
export { edgeAppFor } from './edge-apps.js';
export { armWatchClock, armWatchClockOnce, changedAWatch } from './watch-clock.js';
export { WatchClockObject } from './watch-clock-object.js';
