import type { SourceTotals } from './store.js';

/**
 * The sources whose reputation the summary shows (docs/reports.md, "The summary"): the first
 * `top` by messages, and every source that failed DMARC with more than `failingShare` of the
 * period's messages, however far down the list: a sender that fails in volume is the one a
 * postmaster must find, and the one a blocklist may be why.
 */

export const sourcesThatMatter = { top: 20, failingShare: 0.01 } as const;

/**
 * The addresses of `sources` (most messages first) whose reputation is looked up, `messages` being
 * the period's messages of every source (the share is of them).
 */
export function mattering(
  sources: readonly Pick<SourceTotals, 'ip' | 'fail'>[],
  messages: number,
  rule: { top: number; failingShare: number } = sourcesThatMatter,
): Set<string> {
  const chosen = new Set(sources.slice(0, rule.top).map((source) => source.ip));
  for (const source of sources) {
    if (source.fail > 0 && source.fail > messages * rule.failingShare) chosen.add(source.ip);
  }
  return chosen;
}
