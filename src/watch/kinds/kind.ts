import type { Resolver } from '../../dns/index.js';
import type {
  CheckReadiness,
  DnsblEngine,
  DomainCheckResult,
  FailedCheck,
  IpCheckResult,
  MailCheckDeps,
  MailCheckResult,
  NotConfigured,
} from '../../reputation/index.js';
import type { Fact } from './facts.js';
import type { ListCatalogue } from './list-catalogue.js';
import type { Observation } from './merge.js';

/**
 * The contract of a watch kind (docs/watch-engine.md, "Kinds"), as `defineTool` is the tools':
 * what differs between an IP, a domain and a mail watch is one entry of the registry
 * (registry.ts), never a question asked in the engine, the operations or the views.
 */

/** What a re-check runs on: fresh look-ups, the deadline, the zone list, the mail probes. */
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

/** A watch as its re-check reads it. */
export interface Watched {
  target: string;
  /**
   * A host name watch's pinned addresses (docs/watches.md, "Host names"): the first is checked, as
   * at creation, and the name is not resolved again.
   */
  addresses?: readonly string[] | undefined;
  /** A mail watch's own DKIM selectors. */
  dkim_selectors?: readonly string[] | undefined;
  /** Created with OPERATOR_TOKEN: a mail watch's probes may reach PROBE_ALLOW_NETWORKS. */
  operator?: boolean | undefined;
}

export type RecheckOutcome =
  | {
      ok: true;
      observation: Observation;
      /** The result, as the kind's tool answers it (a watch's creation answers it). */
      result: IpCheckResult | DomainCheckResult | MailCheckResult;
      /** A pinned host name that no longer resolves to its address: what it resolves to now. */
      resolvesTo?: string[];
      /** What a first check pins: a host name's address, the one its re-checks check. */
      pins?: string[];
    }
  | FailedCheck
  | NotConfigured;

export interface WatchKindEntry<Name extends string = string> {
  name: Name;
  /** The tool whose check it runs and whose quota its creation takes (docs/watches.md). */
  tool: 'ip' | 'domain' | 'mail';
  /** Whether its creation takes `dkim_selectors` (asked at every check besides those found). */
  takesSelectors: boolean;
  /**
   * One fresh, confirmed check of the watch's target, read as its tool reads it (`targetOf`), and
   * what it showed as facts and as the status in brief. `known` is what the watch knows (a mail
   * watch names the selectors it has seen keys at); undefined at the first check.
   */
  recheck(
    deps: RecheckDeps,
    watch: Watched,
    known: readonly Fact[] | undefined,
  ): Promise<RecheckOutcome>;
  /**
   * How the views show it (src/tools/watch/): what its badge and card count, whether its page
   * draws the chart of listings, and the heading of its lists' table (none: it has no lists).
   */
  views: {
    counts: 'lists' | 'requirements';
    chart: boolean;
    lists?: 'result.lists' | 'result.domainLists';
  };
}

export function defineKind<const Name extends string>(
  entry: WatchKindEntry<Name>,
): WatchKindEntry<Name> {
  return entry;
}
