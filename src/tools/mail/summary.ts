import type { MailCheckResult } from '../../reputation/index.js';
import type { ShareSummary } from '../../share/index.js';
import { shownAs } from '../common/index.js';

/**
 * A mail check read as what its badge, card and share page show: the mail score, and each
 * mailbox provider's verdict on the domain's setup by its bulk-sender rules (docs/mail.md). It
 * counts no lists: `listed` and `checked` stay 0 and `providers` carries the findings.
 */
export function summariseMail(stored: Record<string, unknown>): ShareSummary {
  const result = stored as unknown as MailCheckResult;
  const { requirements, mail_score: score } = result;
  return {
    tool: 'mail',
    counts: 'requirements',
    ...shownAs(result.domain),
    verdict: score.verdict,
    score: score.score,
    listed: 0,
    checked: 0,
    listings: [],
    providers: {
      gmail: requirements.gmail.verdict,
      yahoo: requirements.yahoo.verdict,
      microsoft: requirements.microsoft.verdict,
    },
    // Results stored before `unseen` was reported count none.
    providersUnseen: {
      gmail: requirements.gmail.unseen ?? 0,
      yahoo: requirements.yahoo.unseen ?? 0,
      microsoft: requirements.microsoft.unseen ?? 0,
    },
    checkedAt: result.checked_at,
  };
}
