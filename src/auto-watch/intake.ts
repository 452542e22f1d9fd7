import type { Logger } from '../lib/index.js';
import type { IntakeOutcome, ReportIntake, ReportStore } from '../reports/index.js';
import { settingsOf } from './settings.js';

/**
 * The intake every door shares, telling the auto-watch of reports taken in (docs/reports.md,
 * "Reports meet watches"): an inbox with auto_watch runs soon after, once per burst. What the
 * door answers never depends on it: a store that fails here is logged, the reports stay taken.
 */
export function withAutoWatch(
  intake: ReportIntake,
  deps: {
    reports: Pick<ReportStore, 'inbox'>;
    reportsTaken: (inboxId: string) => Promise<void>;
    log: Logger;
  },
): ReportIntake {
  async function noted(
    outcome: IntakeOutcome,
    watched: () => Promise<boolean>,
  ): Promise<IntakeOutcome> {
    if (!outcome.ok || outcome.received.every((report) => report.duplicate)) return outcome;
    try {
      if (await watched()) await deps.reportsTaken(outcome.inboxId);
    } catch (error) {
      deps.log('error', 'auto_watch could not note reports taken', {
        inbox: outcome.inboxId,
        error: String(error),
      });
    }
    return outcome;
  }
  return {
    accepts: (recipient) => intake.accepts(recipient),
    async upload(inbox, body, mediaType) {
      const outcome = await intake.upload(inbox, body, mediaType);
      return noted(outcome, async () => settingsOf(inbox) !== null);
    },
    async mail(recipient, message, via) {
      const outcome = await intake.mail(recipient, message, via);
      return noted(outcome, async () => {
        const inbox = outcome.ok ? await deps.reports.inbox(outcome.inboxId) : undefined;
        return inbox !== undefined && settingsOf(inbox) !== null;
      });
    },
  };
}
