import { type Severity, severities } from './result-schemas.js';

/**
 * The one order of severities, most severe first (the order of `severities`): listings, lists
 * and addresses are sorted and summed up by it wherever they are shown.
 */

export function severityRank(severity: Severity): number {
  return severities.indexOf(severity);
}

/** For `Array.prototype.sort`: the more severe first. */
export function bySeverity(a: { severity: Severity }, b: { severity: Severity }): number {
  return severityRank(a.severity) - severityRank(b.severity);
}

/** The most severe of some severities; `info` when there are none. */
export function worstSeverity(found: Iterable<Severity>): Severity {
  let worst: Severity = 'info';
  for (const severity of found) if (severityRank(severity) < severityRank(worst)) worst = severity;
  return worst;
}
