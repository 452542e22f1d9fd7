import { html } from 'hono/html';
import type { MailCheckResult } from '../../reputation/index.js';
import type { ResultContext, ResultView } from '../../pages/index.js';

/** A mail check on the share page: each provider's verdict and what cost the score points. */
export function mailPage(stored: Record<string, unknown>, _context: ResultContext): ResultView {
  const result = stored as unknown as MailCheckResult;
  const { gmail, yahoo, microsoft } = result.requirements;
  const providers = Object.entries({ gmail, yahoo, microsoft });
  return {
    details: html`<dl class="facts">
        ${providers.map(
          ([provider, judged]) =>
            html`<dt>${provider}</dt>
              <dd>${judged.verdict}</dd>`,
        )}
      </dl>
      <ul>
        ${result.mail_score.factors.map(
          (factor) => html`<li>${factor.detail} (${factor.points})</li>`,
        )}
      </ul>`,
    verdictShown: true,
  };
}
