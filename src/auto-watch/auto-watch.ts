import type { Digest, Logger, RandomBytes } from '../lib/index.js';
import type { Store } from '../store/index.js';
import type { Watches } from '../watch/index.js';
import type { Inbox, ReportIntake, ReportStore } from '../reports/index.js';
import { type ConfigureOutcome, createDestinations } from './destination.js';
import { withAutoWatch } from './intake.js';
import { keys, readRecord, runStateSchema } from './records.js';
import { createAutoWatchRunner } from './runner.js';
import type { AutoWatchSettings } from './settings.js';

/**
 * Reports meet watches (docs/reports.md): an inbox's `auto_watch` keeps an IP watch for each
 * source that passes DMARC with enough messages, sends its alerts where the inbox says, and
 * announces each failing source once. The face the reports tool's routes, the intake and the
 * runtimes' timers use.
 */

export interface AutoWatchDeps {
  /** The service's store (STORE_URL): the auto-watch's records and queue. */
  store: Store;
  reports: ReportStore;
  watches: Watches;
  clock: () => Date;
  randomBytes: RandomBytes;
  digest: Digest;
  log: Logger;
  /** REPORTS_AUTOWATCH_MAX. */
  cap: number;
  publicUrl?: string | undefined;
  basePath: string;
  operatorToken?: string | undefined;
  /** WATCH_TTL_DAYS in ms: a watch is renewed well before it would end. */
  watchTtlMs: number;
  timing?: Partial<AutoWatchTiming>;
}

export interface AutoWatchTiming {
  /** After the first report of a burst, the inbox runs this much later (60 s). */
  debounceMs: number;
  /** Watches made in one run (10). */
  createsPerRun: number;
  /** Failing sources announced in one run (20). */
  announcesPerRun: number;
  /** Inboxes one tick runs (4). */
  inboxesPerTick: number;
}

export const defaultTiming: AutoWatchTiming = {
  debounceMs: 60_000,
  createsPerRun: 10,
  announcesPerRun: 20,
  inboxesPerTick: 4,
};

export function createAutoWatch(deps: AutoWatchDeps) {
  const timing = { ...defaultTiming, ...deps.timing };
  const destinations = createDestinations(deps);
  const runner = createAutoWatchRunner({
    ...deps,
    ...timing,
    destinations,
    // Daily runs renew; a watch missed by a day or two still has most of its time.
    renewEveryMs: Math.min(12 * 3_600_000, deps.watchTtlMs / 4),
  });
  return {
    /** The inbox was made: with OPERATOR_TOKEN, its destination is the operator's. */
    created: (inbox: Pick<Inbox, 'id'>, credential: string | undefined) =>
      destinations.markOperator(inbox.id, credential),

    /** Whether the inbox's webhook may reach WEBHOOK_ALLOW_NETWORKS (the operator's inbox). */
    isOperator: (inboxId: string) => destinations.isOperator(inboxId),

    /**
     * PATCH's settings, judged: the destination set (its secret answered once, its address's
     * confirmation sent). A refusal changes nothing.
     */
    async configure(
      inbox: Inbox,
      settings: AutoWatchSettings | null,
      origin: string,
    ): Promise<ConfigureOutcome> {
      return destinations.configure(inbox, settings, origin, deps.cap);
    },

    /** The inbox's settings were kept: it runs now. */
    changed: (inboxId: string) => runner.runNow(inboxId),

    /** The inbox was erased: its watches and records go at its run, now. */
    erased: (inboxId: string) => runner.runNow(inboxId),

    emailCode: destinations.emailCode,
    /** The confirmation link's POST; a confirmed address is given to the watches now. */
    async confirmEmail(inboxId: string, code: string) {
      const check = await destinations.confirmEmail(inboxId, code);
      if (check === 'ok') await runner.runNow(inboxId);
      return check;
    },
    /** The one-click unsubscribe; the watches lose the address now. */
    async unsubscribeEmail(inboxId: string, code: string) {
      const outcome = await destinations.unsubscribeEmail(inboxId, code);
      if (outcome === 'ok') await runner.runNow(inboxId);
      return outcome;
    },
    /** The inbox's address and its state (the e-mail links' pages). */
    async address(inboxId: string) {
      return (await destinations.read(inboxId))?.email ?? null;
    },

    /** The intake, telling this auto-watch of the reports it takes. */
    intake: (intake: ReportIntake) =>
      withAutoWatch(intake, {
        reports: deps.reports,
        reportsTaken: runner.reportsTaken,
        log: deps.log,
      }),

    /** The sources the inbox watches now: address and watch id, as the last run left them. */
    async watched(inboxId: string): Promise<{ ip: string; watch_id: string }[]> {
      const state = await readRecord(deps.store, keys.run(inboxId), runStateSchema);
      return Object.entries(state?.watches ?? {}).map(([ip, { id }]) => ({ ip, watch_id: id }));
    },

    runner,
  };
}

export type AutoWatch = ReturnType<typeof createAutoWatch>;
