import { z } from 'zod';
import type { Fact } from './facts.js';
import { domainKind } from './domain.js';
import { ipKind } from './ip.js';
import type { RecheckDeps, RecheckOutcome, Watched } from './kind.js';
import { mailKind } from './mail.js';
import { cleanObservation } from './third-party.js';

/**
 * Every kind of watch (docs/watch-engine.md, "Kinds"), as src/tools/registry.ts lists the tools:
 * the engine, the operations and the views look a kind up here and ask nothing else of it. A
 * new kind is its file and one line here.
 */
export const watchKinds = { ip: ipKind, domain: domainKind, mail: mailKind } as const;

export type WatchKind = keyof typeof watchKinds;

const names = Object.keys(watchKinds) as [WatchKind, ...WatchKind[]];

export const watchKindSchema = z.enum(names).meta({
  description:
    'ip: an IPv4 or IPv6 address or a host name, checked as POST /ip/v1 does; domain: a sending domain, checked as POST /domain/v1 does; mail: a domain’s mail setup, checked as POST /mail/v1 does.',
});

/** The kinds whose creation takes `dkim_selectors`. */
export const kindsTakingSelectors = names.filter((name) => watchKinds[name].takesSelectors);

/**
 * One check of a watch's target, as its kind's tool checks it but with fresh look-ups
 * (docs/watches.md): a resolver and a DNSBL engine that skip the answer cache, and no result
 * cache. A check that cannot be trusted is not an observation: while the service is not
 * configured, when the resolver was caught lying during it (the confirmed check every tool runs,
 * src/reputation/checks/confirmed-check.ts), or when the DNS did not answer, it says why and the
 * watch records nothing.
 */
export type Recheck = (
  watch: Watched & { kind: WatchKind },
  known?: { facts?: readonly Fact[] | undefined },
) => Promise<RecheckOutcome>;

export function createRecheck(deps: RecheckDeps): Recheck {
  return async (watch, known) => {
    const outcome = await watchKinds[watch.kind].recheck(deps, watch, known?.facts);
    // What the check heard enters the watch here: its texts cleaned and clipped once.
    return outcome.ok
      ? { ...outcome, observation: cleanObservation(outcome.observation) }
      : outcome;
  };
}
