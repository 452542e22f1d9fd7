import { checkDomain, runConfirmed } from '../../reputation/index.js';
import { readWatchTarget } from './target.js';
import { defineKind } from './kind.js';
import { observeDomain } from './lists.js';

/**
 * A domain watch: a sending domain, checked as POST /domain/v1 checks it: its own lists and each
 * sender address's (its SPF and MX), the addresses found anew at every check.
 */
export const domainKind = defineKind({
  name: 'domain',
  tool: 'domain',
  takesSelectors: false,
  async recheck(deps, watch) {
    const read = readWatchTarget('domain', watch.target);
    if (!read.ok) return read;
    const outcome = await runConfirmed(deps, () => checkDomain(deps, read.target));
    if (!outcome.ok) return outcome;
    return {
      ok: true,
      observation: observeDomain(outcome.result, deps.catalogue),
      result: outcome.result,
    };
  },
  views: { counts: 'lists', chart: true, lists: 'result.domainLists' },
});
