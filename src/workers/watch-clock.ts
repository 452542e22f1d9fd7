import type { WorkerEnv } from './app.js';
import { variablesOf } from './edge-apps.js';

/**
 * Arms the watch clock of this configuration (watch-clock-object.ts): called on the first request
 * an isolate serves, when a watch is created or changed, and by the Cron Trigger, so the clock
 * runs while watches live.
 */
export async function armWatchClock(env: WorkerEnv): Promise<void> {
  const variables = variablesOf(env);
  const clock = env.WATCH_CLOCK.get(env.WATCH_CLOCK.idFromName(JSON.stringify(variables)));
  await clock.arm(variables);
}

/**
 * Whether an answer created, changed or tested a watch: a POST or PATCH under `/watch/v1` that
 * succeeded; or may have given a reports inbox's auto-watch work (docs/reports.md, "Reports meet
 * watches"): a POST, PATCH or DELETE under `/reports/v1` that succeeded (an upload, a PATCH of
 * auto_watch, an erased inbox, an e-mail link). The clock is armed then (src/worker.ts).
 */
export function changedAWatch(request: Request, response: Response): boolean {
  const path = new URL(request.url).pathname;
  const { method } = request;
  if (!response.ok) return false;
  if (path.includes('/watch/v1')) return method === 'POST' || method === 'PATCH';
  return path.includes('/reports/v1') && ['POST', 'PATCH', 'DELETE'].includes(method);
}

/**
 * The configurations whose clock this isolate has armed. Like edge-apps.ts's apps, it lives as
 * long as the isolate: a new isolate (a deploy, an eviction, `wrangler dev` started again, perhaps
 * with other variables and so another clock) arms its clock on the first request it serves, so
 * the watches made before go on without waiting for a watch to be created or changed, and under
 * `wrangler dev`, where no Cron Trigger fires.
 */
const armedHere = new Set<string>();

/**
 * Arms this configuration's clock if this isolate has not yet: the work to wait for
 * (`ctx.waitUntil`), or undefined. A failed arming is tried again by the next request.
 */
export function armWatchClockOnce(env: WorkerEnv): Promise<void> | undefined {
  const key = JSON.stringify(variablesOf(env));
  if (armedHere.has(key)) return undefined;
  armedHere.add(key);
  return armWatchClock(env).catch((error: unknown) => {
    armedHere.delete(key);
    console.error(`watch clock: not armed: ${String(error)}`);
  });
}
