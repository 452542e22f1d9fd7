import { DurableObject } from 'cloudflare:workers';
import type { CheckClaims, WorkerEnv } from './app.js';
import { readWorkerConfig } from './config.js';
import { createEdgeApps } from './edge-apps.js';

/**
 * What re-checks watches on Workers (docs/watch-engine.md, "On Workers"): a Durable Object whose alarm
 * runs the watch runner's tick, then sets itself again for the next due time this runner knows
 * of, or one poll period on. An isolate keeps no timer between requests; an alarm outlives them
 * and fires under `wrangler dev` too (a Cron Trigger fires only when deployed).
 *
 * One object per configuration (watch-clock.ts names it after the variables), armed by every
 * request that creates or changes a watch, with the variables it must build the app from: the
 * object's own env holds the bindings, and in tests the variables come with each request.
 */

/** The poll period: a tenth of the shortest interval allowed, from 1 s to 60 s. */
function pollMsOf(env: WorkerEnv): number {
  const minIntervalMs = readWorkerConfig(env).watch.minIntervalS * 1000;
  return Math.min(60_000, Math.max(1000, Math.round(minIntervalMs / 10)));
}

/** With no live watch, the alarm still comes hourly: a delivery retry may be pending. */
const idleMs = 3_600_000;

/**
 * The watches the tick under way has claimed, kept in the object's storage until it ends. An
 * alarm never runs beside another of the same object, so at an alarm's start any left there were
 * claimed by a tick whose runtime stopped (`wrangler dev` stopped or killed, a deploy, an
 * eviction): their checks died, and their claims would hold them for the rest of the lease, two
 * minutes, after every such restart (docs/edge.md, "The watch clock across restarts").
 */
const claimedKey = 'claimed';

export class WatchClockObject extends DurableObject<WorkerEnv> {
  /**
   * The object's own apps, never the Worker's: an alarm runs in the object's I/O context, and a
   * DNS stack shared with the Worker's requests would hand this object's queries to them and
   * theirs to it (docs/edge.md, "One app per I/O owner").
   */
  readonly #apps = createEdgeApps();

  /** Keeps the variables to build the app from, and sets the alarm for now unless one is set. */
  async arm(variables: Record<string, string>): Promise<void> {
    await this.ctx.storage.put('variables', variables);
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > Date.now() + 1000) await this.ctx.storage.setAlarm(Date.now());
  }

  override async alarm(): Promise<void> {
    const variables = await this.ctx.storage.get<Record<string, string>>('variables');
    if (variables === undefined) return;
    const env: WorkerEnv = { ...this.env, ...variables };
    let next: number;
    try {
      const pollMs = pollMsOf(env);
      const app = await this.#apps.appFor(env);
      const { watches } = app.services;
      const orphaned = await this.ctx.storage.get<CheckClaims>(claimedKey);
      const report = await app
        .tickWatches({
          ...(orphaned ? { orphaned } : {}),
          onClaimed: async (claims) => {
            if (claims.watchIds.length > 0) await this.ctx.storage.put(claimedKey, claims);
          },
        })
        .finally(() => this.ctx.storage.delete(claimedKey));
      const now = Date.now();
      const due = watches.runner.nextDueAt(now);
      if (report.full) next = now;
      else if (due !== undefined) next = Math.min(due, now + pollMs);
      else next = now + ((await watches.countLive()) > 0 ? pollMs : idleMs);
      // The reports' auto-watch rides this clock (app.ts `tickWatches`): its next run due, too.
      const autoWatchDue = await app.services.reports.autoWatch.runner.nextDueAt();
      if (autoWatchDue !== undefined) next = Math.max(now, Math.min(next, autoWatchDue));
    } catch (error) {
      // A store or configuration that fails now is tried again in a minute.
      console.error(`watch clock: ${String(error)}`);
      next = Date.now() + 60_000;
    }
    await this.ctx.storage.setAlarm(next);
  }
}
