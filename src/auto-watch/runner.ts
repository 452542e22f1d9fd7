import { base64url, type RandomBytes } from '../lib/index.js';
import { keys } from './records.js';
import { retryMs, type RunDeps, runInbox } from './run-inbox.js';

/**
 * When the inboxes' auto-watch runs (docs/reports.md, "Reports meet watches"): each inbox with
 * auto_watch is in one due queue of the service's store at its next run, so whichever process
 * claims it (WORKERS=N, machines sharing a Redis) runs it alone. It falls due a day after its
 * last run (the renewals), soon after reports came in (debounced per inbox: the first report of a
 * burst puts the run `debounceMs` on, the others add nothing), and at once after a PATCH, a
 * DELETE or an e-mail link. Each tick runs a few inboxes; each run's work is bounded.
 */

export interface RunnerDeps extends RunDeps {
  /** How long after the first report of a burst the inbox runs. */
  debounceMs: number;
  /** Inboxes one tick runs, one after another. */
  inboxesPerTick: number;
  randomBytes: RandomBytes;
}

/** A run's claim: far past what a run takes, so a living runner is never overtaken. */
const leaseMs = 10 * 60_000;

export function createAutoWatchRunner(deps: RunnerDeps) {
  const { store } = deps;
  const now = () => deps.clock().getTime();
  const listeners: (() => void)[] = [];
  let running: Promise<unknown> = Promise.resolve();

  async function runOne(inboxId: string): Promise<void> {
    const started = now();
    // Reports taken while a run is under way put the inbox due again, which may end its claim:
    // the lock keeps a second runner out of it until this run ends (or its lease passes).
    const token = base64url(deps.randomBytes(12));
    if (!(await store.addMemberWithin(keys.lock(inboxId), token, 1, leaseMs))) {
      await store.putDue(keys.runs, inboxId, started + deps.debounceMs);
      return;
    }
    let next: number | undefined;
    try {
      next = (await runInbox(deps, inboxId)).next;
    } catch (error) {
      // A store or a report store that fails: this inbox again a little later.
      deps.log('error', 'auto_watch run failed', { inbox: inboxId, error: String(error) });
      next = now() + retryMs;
    } finally {
      await store.removeMembers(keys.lock(inboxId), [token]);
    }
    // Reports that came in during the run may not have been read: their run still comes.
    const soon = Number(await store.get(keys.soon(inboxId)));
    if (next !== undefined && soon >= started) next = Math.min(next, soon + deps.debounceMs);
    if (next === undefined) await store.removeDue(keys.runs, inboxId);
    else await store.putDue(keys.runs, inboxId, next);
  }

  return {
    /** Runs the inboxes due now, a few at a time: how many ran. */
    async tick(): Promise<number> {
      const claims = await store.claimDue(keys.runs, now(), deps.inboxesPerTick, leaseMs);
      const work = (async () => {
        for (const claim of claims) await runOne(claim.id);
      })();
      running = work;
      await work;
      return claims.length;
    },

    /** The inbox runs now (a PATCH, a DELETE, a confirmed address): the runner is woken. */
    async runNow(inboxId: string): Promise<void> {
      await store.putDue(keys.runs, inboxId, now());
      for (const listener of listeners) listener();
    },

    /**
     * Reports came in for the inbox: it runs `debounceMs` from the first of them, once for the
     * burst. The mark lives that long, so two processes seldom both put the run, and harmlessly.
     */
    async reportsTaken(inboxId: string): Promise<void> {
      if ((await store.get(keys.soon(inboxId))) !== undefined) return;
      const at = now();
      await store.set(keys.soon(inboxId), String(at), deps.debounceMs);
      await store.putDue(keys.runs, inboxId, at + deps.debounceMs);
    },

    /** When the earliest inbox falls due (a Durable Object's alarm, a timer). */
    nextDueAt: () => store.earliestDue(keys.runs),

    onWake(listener: () => void): void {
      listeners.push(listener);
    },

    /** Waits for the run under way (graceful shutdown). */
    async settled(): Promise<void> {
      await running.catch(() => {});
    },
  };
}

export type AutoWatchRunner = ReturnType<typeof createAutoWatchRunner>;
