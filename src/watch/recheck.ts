import type { Resolver } from '../dns/index.js';
import {
  checkDomain,
  checkIp,
  type DnsblEngine,
  type DomainCheckResult,
  type FailedCheck,
  type IpCheckResult,
  parseHostName,
  parseTarget,
  type ResolverConfirmation,
} from '../reputation/index.js';
import type { ListCatalogue } from './list-catalogue.js';
import { type Observation, observeDomain, observeIp } from './observation.js';
import type { WatchKind } from './schemas.js';

/**
 * One check of a watch's target, as the IP or domain tool checks it but with fresh look-ups
 * (docs/watches.md): a resolver and a DNSBL engine that skip the answer cache, and no result
 * cache. A check that cannot be trusted is not an observation: while the service is not
 * configured, when the resolver was caught lying during it (the confirmation the tools use), or
 * when the DNS did not answer, it says why and the watch records nothing.
 */

export type RecheckOutcome =
  | { ok: true; observation: Observation; result: IpCheckResult | DomainCheckResult }
  | FailedCheck
  | { ok: false; error: 'not_configured'; reason: string };

export type Recheck = (watch: { target: string; kind: WatchKind }) => Promise<RecheckOutcome>;

export interface RecheckDeps {
  /** Resolver and engine over it that skip the DNS answer cache (`withFreshAnswers`). */
  resolver: Resolver;
  dnsbl: DnsblEngine;
  deadlineMs: number;
  now: () => Date;
  isConfigured: () => boolean;
  notConfiguredReason?: () => string | undefined;
  /** Started with each check; `lying` discards it (src/tools/common/snapshot-tool.ts does the same). */
  confirmResolver?: () => ResolverConfirmation;
  catalogue: ListCatalogue;
}

/** As in the tools: the confirmation asks one test entry beside the check, so it is normally in first. */
const confirmationGraceMs = 250;

export function createRecheck(deps: RecheckDeps): Recheck {
  const notConfigured = () => ({
    ok: false as const,
    error: 'not_configured' as const,
    reason:
      deps.notConfiguredReason?.() ?? 'the service is not ready: its DNS resolver does not answer',
  });
  return async (watch) => {
    const parsed = watch.kind === 'ip' ? parseTarget(watch.target) : parseHostName(watch.target);
    if (!parsed.ok) return { ok: false, error: 'invalid_target', reason: parsed.reason };
    if (!deps.isConfigured()) return notConfigured();
    const { target } = parsed;
    const confirmation = deps.confirmResolver?.();
    const outcome =
      watch.kind === 'domain' && target.kind === 'domain'
        ? await checkDomain(deps, target)
        : watch.kind === 'ip'
          ? await checkIp(deps, target)
          : ({ ok: false, error: 'invalid_target', reason: 'expected a domain name' } as const);
    if ((await confirmation?.settle(confirmationGraceMs)) === 'lying') return notConfigured();
    if (!outcome.ok) return outcome;
    const observation =
      'domain_score' in outcome.result
        ? observeDomain(outcome.result, deps.catalogue)
        : observeIp(outcome.result);
    return { ok: true, observation, result: outcome.result };
  };
}
