import type { ProbeTally } from './self-test.js';

/**
 * What a self-test run says about the resolver path as a whole, and what the operator should
 * change. Every list's answer travels through the same resolver, so when no list's documented
 * test entry comes back, the fault is the resolver's (a filtering or ad-serving upstream, or a
 * machine without outside DNS), not forty lists failing at once.
 */

export type ResolverDiagnosis =
  /** At least one documented test entry answered as documented and random names NXDOMAIN. */
  | { kind: 'honest' }
  /** Not one probe was answered. */
  | { kind: 'silent' }
  /** Every answered probe was SERVFAIL or REFUSED. */
  | { kind: 'refusing' }
  /** Documented test entries answer NXDOMAIN: no "not listed" can be believed. */
  | { kind: 'nxdomain' }
  /** Names that do not exist answer with public addresses. */
  | { kind: 'rewriting'; address: string }
  /** Spamhaus refuses the resolver as a public one (127.255.255.254). */
  | { kind: 'public-resolver' }
  /** None of the above: the lists' own reasons say more. */
  | { kind: 'unproven' };

export function diagnose(tally: ProbeTally): ResolverDiagnosis {
  if (tally.provenLists > 0) return { kind: 'honest' };
  const [rewritten] = tally.rewrites;
  if (rewritten !== undefined) return { kind: 'rewriting', address: rewritten };
  if (tally.sent > 0 && tally.timeouts === tally.sent) return { kind: 'silent' };
  if (tally.testEntriesMissing > 0) return { kind: 'nxdomain' };
  if (tally.publicResolverRefusals > 0) return { kind: 'public-resolver' };
  if (tally.refusals > 0 && tally.refusals + tally.timeouts === tally.sent)
    return { kind: 'refusing' };
  return { kind: 'unproven' };
}

/** The fix, the same words in the start log, every status `reason` and README's "Choosing a resolver". */
export const resolverAdvice =
  'Run a local recursive resolver (for example unbound) and point DNS_SERVERS at it; ' +
  'use SPAMHAUS_DQS_KEY when queries must go through a public resolver.';

/**
 * The status `reason` for a diagnosis, in plain words. `resolver` names the resolver, e.g.
 * `DNS_SERVERS 127.0.0.1:53` or `the system resolver (DNS_SERVERS is not set)`.
 */
export function explain(diagnosis: ResolverDiagnosis, resolver: string): string | undefined {
  switch (diagnosis.kind) {
    case 'honest':
      return undefined;
    case 'silent':
      return (
        `The DNS resolver (${resolver}) does not answer, so no blocklist can be asked. ` +
        'Point DNS_SERVERS at a recursive resolver that answers, for example unbound on this machine.'
      );
    case 'refusing':
      return (
        `The DNS resolver (${resolver}) refuses the blocklists' queries (REFUSED or SERVFAIL). ` +
        resolverAdvice
      );
    case 'nxdomain':
      return (
        `The DNS resolver (${resolver}) answers NXDOMAIN even for the blocklists' documented test ` +
        'entries (such as 2.0.0.127.zen.spamhaus.org): it filters or blocks them, or this machine ' +
        'has no outside DNS, so no "not listed" answer can be trusted. ' +
        resolverAdvice
      );
    case 'rewriting':
      return (
        `The DNS resolver (${resolver}) turns NXDOMAIN into addresses (a name that does not exist ` +
        `answered ${diagnosis.address}), as ad-serving resolvers do, so every answer is suspect. ` +
        resolverAdvice
      );
    case 'public-resolver':
      return (
        `The blocklists refuse this resolver (${resolver}): Spamhaus answers 127.255.255.254, its ` +
        'code for queries that come through a public resolver. Set SPAMHAUS_DQS_KEY, or run a ' +
        'local recursive resolver (for example unbound) and point DNS_SERVERS at it.'
      );
    case 'unproven':
      return (
        'No blocklist has proven yet that it answers honestly through this resolver ' +
        `(${resolver}); GET /lists says why for each list. ${resolverAdvice}`
      );
  }
}
