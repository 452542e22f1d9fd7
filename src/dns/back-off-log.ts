import type { Logger } from '../lib/index.js';
import type { UnreachableReport } from './back-off.js';

/**
 * A resolver that answers nothing, told once per back-off wait with how many queries failed
 * meanwhile (src/dns/back-off.ts), never once per query.
 */
export function logUnreachable(log: Logger, report: UnreachableReport): void {
  const wait = (ms: number) => `${ms / 1000} s`;
  if (report.kind === 'held') {
    log('error', 'DNS resolver answers nothing: queries fail at once, probed with back-off', {
      failures_in_a_row: report.failures,
      next_probe_in: wait(report.waitMs),
    });
  } else if (report.kind === 'still') {
    log('error', 'DNS resolver still answers nothing', {
      failed_since_last_report: report.failed,
      down_for: wait(report.sinceMs),
      next_probe_in: wait(report.waitMs),
    });
  } else {
    log('info', 'DNS resolver answers again', {
      failed_since_last_report: report.failed,
      down_for: wait(report.sinceMs),
    });
  }
}
