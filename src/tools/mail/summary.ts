import type { MailCheckResult } from '../../reputation/index.js';
import type { ShareSummary } from '../../share/index.js';
import { shownAs } from '../common/index.js';

/** A mail check read as what its badge, card and share page show: the mail score and its verdict. */

export function summariseMail(stored: Record<string, unknown>): ShareSummary {
  const result = stored as unknown as MailCheckResult;
  return {
    tool: 'mail',
    counts: 'lists',
    ...shownAs(result.domain),
    verdict: result.mail_score.verdict,
    score: result.mail_score.score,
    listed: 0,
    checked: 0,
    listings: [],
    checkedAt: result.checked_at,
  };
}
