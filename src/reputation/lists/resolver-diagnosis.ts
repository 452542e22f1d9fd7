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

/**
 * The variable that names the resolvers: `DNS_SERVERS` on Node over UDP, `DOH_URL` over DNS over
 * HTTPS (Workers, or Node with DNS_TRANSPORT=doh). Reasons name the one the operator can set.
 */
export type ResolverSetting = 'DNS_SERVERS' | 'DOH_URL';

/** The fix, the same words in the start log, every status `reason` and README's "Choosing a resolver". */
export function resolverAdvice(setting: ResolverSetting): string {
  return setting === 'DOH_URL'
    ? 'Point DOH_URL at a DNS-over-HTTPS resolver that answers the blocklists; ' +
        'use SPAMHAUS_DQS_KEY, as Spamhaus refuses public resolvers.'
    : 'Run a local recursive resolver (for example unbound) and point DNS_SERVERS at it; ' +
        'use SPAMHAUS_DQS_KEY when queries must go through a public resolver.';
}

/** What to point at a resolver that answers, for a resolver that does not. */
export function answeringResolverAdvice(setting: ResolverSetting): string {
  return setting === 'DOH_URL'
    ? 'Point DOH_URL at a DNS-over-HTTPS resolver that answers.'
    : 'Point DNS_SERVERS at a recursive resolver that answers, for example unbound on this machine.';
}

/**
 * The status `reason` for a diagnosis, in plain words. `resolver` names the resolver, e.g.
 * `the one DNS_SERVERS names` or `the system resolver, as DNS_SERVERS is not set`; `setting` is the
 * variable the advice names (DNS_SERVERS by default).
 */
export function explain(
  diagnosis: ResolverDiagnosis,
  resolver: string,
  setting: ResolverSetting = 'DNS_SERVERS',
): string | undefined {
  const advice = resolverAdvice(setting);
  switch (diagnosis.kind) {
    case 'honest':
      return undefined;
    case 'silent':
      return (
        `The DNS resolver (${resolver}) does not answer, so no blocklist can be asked. ` +
        answeringResolverAdvice(setting)
      );
    case 'refusing':
      return (
        `The DNS resolver (${resolver}) refuses the blocklists' queries (REFUSED or SERVFAIL). ` +
        advice
      );
    case 'nxdomain':
      return (
        `The DNS resolver (${resolver}) answers NXDOMAIN even for the blocklists' documented test ` +
        'entries (such as 2.0.0.127.zen.spamhaus.org): it filters or blocks them, or this machine ' +
        'has no outside DNS, so no "not listed" answer can be trusted. ' +
        advice
      );
    case 'rewriting':
      return (
        `The DNS resolver (${resolver}) turns NXDOMAIN into addresses (a name that does not exist ` +
        `answered ${diagnosis.address}), as ad-serving resolvers do, so every answer is suspect. ` +
        advice
      );
    case 'public-resolver':
      return (
        `The blocklists refuse this resolver (${resolver}): Spamhaus answers 127.255.255.254, its ` +
        'code for queries that come through a public resolver. ' +
        (setting === 'DOH_URL'
          ? 'Set SPAMHAUS_DQS_KEY.'
          : 'Set SPAMHAUS_DQS_KEY, or run a local recursive resolver (for example unbound) and ' +
            'point DNS_SERVERS at it.')
      );
    case 'unproven':
      return (
        'No blocklist has proven yet that it answers honestly through this resolver ' +
        `(${resolver}); GET /lists says why for each list. ${advice}`
      );
  }
}
