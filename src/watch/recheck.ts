import type { Resolver } from '../dns/index.js';
import {
  type CheckOutcome,
  type CheckReadiness,
  checkDomain,
  checkIp,
  checkMail,
  type DnsblEngine,
  type DomainCheckResult,
  type FailedCheck,
  type IpCheckResult,
  type MailCheckDeps,
  type MailCheckResult,
  type NotConfigured,
  publicAddressesOf,
  runConfirmed,
  type Target,
} from '../reputation/index.js';
import type { ListCatalogue } from './list-catalogue.js';
import { type MailFacts, watchSelectors } from './mail/index.js';
import { type Observation, observeDomain, observeIp, observeMailCheck } from './observation.js';
import type { WatchKind } from './schemas.js';
import { parseWatchTarget } from './target.js';

/**
 * One check of a watch's target, as the IP or domain tool checks it but with fresh look-ups
 * (docs/watches.md): a resolver and a DNSBL engine that skip the answer cache, and no result
 * cache. A check that cannot be trusted is not an observation: while the service is not
 * configured, when the resolver was caught lying during it (the confirmed check every tool runs,
 * src/reputation/checks/confirmed-check.ts), or when the DNS did not answer, it says why and the
 * watch records nothing.
 */

export type RecheckOutcome =
  | {
      ok: true;
      observation: Observation;
      result: IpCheckResult | DomainCheckResult | MailCheckResult;
      /** A pinned host name that no longer resolves to its address: what it resolves to now. */
      resolvesTo?: string[];
    }
  | FailedCheck
  | NotConfigured;

/**
 * `addresses`: a host name watch's pinned addresses (docs/watches.md, "Host names"): the first is
 * checked, as at creation, and the name is not resolved again. A mail watch names its own
 * `dkim_selectors` and, from what it knows (`known.mail`), the selectors it has seen keys at.
 */
export type Recheck = (
  watch: {
    target: string;
    kind: WatchKind;
    addresses?: readonly string[] | undefined;
    dkim_selectors?: readonly string[] | undefined;
  },
  known?: { mail?: MailFacts | undefined },
) => Promise<RecheckOutcome>;

export interface RecheckDeps extends CheckReadiness {
  /** Resolver and engine over it that skip the DNS answer cache (`withFreshAnswers`). */
  resolver: Resolver;
  dnsbl: DnsblEngine;
  deadlineMs: number;
  now: () => Date;
  catalogue: ListCatalogue;
  /**
   * What a mail watch's check connects with, as the mail tool's (the runtime's probes, the rule of
   * where they may connect, their deadline); without it a mail watch's check is not configured.
   */
  probes?: Omit<MailCheckDeps, 'resolver' | 'dnsbl' | 'deadlineMs' | 'now'>;
}

export function createRecheck(deps: RecheckDeps): Recheck {
  return async (watch, known) => {
    const parsed = parseWatchTarget(watch.kind, watch.target);
    if (!parsed.ok) return parsed;
    if (watch.kind === 'mail' && parsed.target.kind === 'domain') {
      return recheckMail(parsed.target, watchSelectors(watch.dkim_selectors, known?.mail));
    }
    const pinned = watch.addresses?.[0];
    const pinnedTarget = pinned === undefined ? undefined : parseWatchTarget('ip', pinned);
    const target = pinnedTarget?.ok ? pinnedTarget.target : parsed.target;
    const outcome = await runConfirmed<CheckOutcome<IpCheckResult | DomainCheckResult>>(deps, () =>
      target.kind === 'domain' && watch.kind === 'domain'
        ? checkDomain(deps, target)
        : checkIp(deps, target),
    );
    if (!outcome.ok) return outcome;
    const resolvesTo = pinned === undefined ? undefined : await movedFrom(parsed.target, pinned);
    const observation =
      'domain_score' in outcome.result
        ? observeDomain(outcome.result, deps.catalogue)
        : observeIp(outcome.result);
    return {
      ok: true,
      observation,
      result: outcome.result,
      ...(resolvesTo ? { resolvesTo } : {}),
    };
  };

  /** A mail watch's check: the mail tool's, on fresh look-ups, with the same probes. */
  async function recheckMail(
    domain: { name: string; display: string },
    selectors: string[],
  ): Promise<RecheckOutcome> {
    const probes = deps.probes;
    if (!probes) {
      return { ok: false, error: 'not_configured', reason: 'mail checks are not set up here' };
    }
    const mailDeps = { ...probes, ...deps };
    const outcome = await runConfirmed(deps, () => checkMail(mailDeps, domain, { selectors }));
    if (!outcome.ok) return outcome;
    return { ok: true, result: outcome.result, observation: observeMailCheck(outcome.result) };
  }

  /**
   * The addresses a pinned host name resolves to now, when its pinned address is not among them:
   * a note for the view, never a change (docs/watches.md, "Host names"). A name that does not
   * resolve now says nothing.
   */
  async function movedFrom(target: Target, pinned: string): Promise<string[] | undefined> {
    if (target.kind !== 'domain') return undefined;
    const now = await publicAddressesOf(deps.resolver, target.name).catch(() => undefined);
    if (!now?.ok || now.addresses.includes(pinned)) return undefined;
    return now.addresses.slice(0, maxAddressesShown);
  }
}

/** Addresses a note names at most. */
const maxAddressesShown = 8;
