import { checkMail, runConfirmed } from '../../reputation/index.js';
import { readWatchTarget } from './target.js';
import { defineKind } from './kind.js';
import { observeMailCheck } from './mail-observe.js';
import { watchSelectors } from './mail-selectors.js';

/**
 * A mail watch (docs/watches.md, "Mail watches"): a domain's mail setup, checked as POST /mail/v1
 * checks it, on fresh look-ups with the runtime's probes (on Workers, no SMTP). It names its own
 * DKIM selectors and those it has seen keys at, so a key that is gone reads as gone.
 */
export const mailKind = defineKind({
  name: 'mail',
  tool: 'mail',
  takesSelectors: true,
  async recheck(deps, watch, known) {
    const read = readWatchTarget('mail', watch.target);
    if (!read.ok) return read;
    const { probes } = deps;
    if (!probes) {
      return { ok: false, error: 'not_configured', reason: 'mail checks are not set up here' };
    }
    const selectors = watchSelectors(watch.dkim_selectors, known);
    const mailDeps = { ...probes, ...deps };
    // Only the operator's watches probe PROBE_ALLOW_NETWORKS, as only theirs deliver inside.
    const options = { selectors, operator: watch.operator === true };
    const outcome = await runConfirmed(deps, () => checkMail(mailDeps, read.target, options));
    if (!outcome.ok) return outcome;
    return { ok: true, observation: observeMailCheck(outcome.result), result: outcome.result };
  },
  views: { counts: 'requirements', chart: false },
});
