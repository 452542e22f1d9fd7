import { maxCallerSelectors } from '../../reputation/index.js';
import type { Fact } from './facts.js';

/**
 * The DKIM selectors a mail watch's re-check names (docs/watches.md, "Mail watches"): the watch's
 * own `dkim_selectors`, then every selector it has seen a key record at. Named, a selector is
 * always in the result, and a look-up that failed says so (src/reputation/mail/dkim-check.ts), so
 * a key that is gone reads as gone and a DNS timeout as silence, whatever table or provider first
 * found it. At most `maxCallerSelectors`: the watch's own, then those with a key now.
 */
export function watchSelectors(
  own: readonly string[] | undefined,
  known: readonly Fact[] | undefined,
): string[] {
  // Keys found now first: past the bound, a selector long gone is the one left to the table.
  const seen = (known ?? [])
    .filter((fact) => fact.what === 'dkim')
    .sort((a, b) => Number(b.value === 'found') - Number(a.value === 'found'))
    .map((fact) => fact.subject);
  return [...new Set([...(own ?? []), ...seen])].slice(0, maxCallerSelectors);
}
