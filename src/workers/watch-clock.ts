import type { WorkerEnv } from './app.js';
import { variablesOf } from './edge-apps.js';

/**
 * Arms the watch clock of this configuration (watch-clock-object.ts): called when a watch is
 * created or changed, and by the Cron Trigger, so the clock runs while watches live.
 */
export async function armWatchClock(env: WorkerEnv): Promise<void> {
  const variables = variablesOf(env);
  const clock = env.WATCH_CLOCK.get(env.WATCH_CLOCK.idFromName(JSON.stringify(variables)));
  await clock.arm(variables);
}

/**
 * Whether an answer created, changed or tested a watch: a POST or PATCH under `/watch/v1` that
 * succeeded. The clock is armed then (src/worker.ts).
 */
export function changedAWatch(request: Request, response: Response): boolean {
  return (
    (request.method === 'POST' || request.method === 'PATCH') &&
    response.ok &&
    new URL(request.url).pathname.includes('/watch/v1')
  );
}
