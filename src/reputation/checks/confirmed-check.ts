import { cleanShownText } from '../../dns/index.js';
import type { ResolverConfirmation } from '../lists/index.js';
import { checkFailures } from './check-outcome.js';

/**
 * A fresh check that can be trusted: asked only while the service is configured, and run beside a
 * confirmation of the resolver (one proven list's documented test entry asked past every cache,
 * the zone monitor's `confirm`), so a resolver caught answering falsely during the check voids it.
 * Every fresh check runs through here: the snapshot tools' POSTs, a watch's first check and its
 * re-checks (docs/registry.md, "The shared pieces"). What a failure costs the caller is the HTTP
 * layer's rule (src/tools/common/fresh-check.ts; docs/results.md, Refunds).
 */

/** Whether the service may check now, and the confirmation it asks beside each check. */
export interface CheckReadiness {
  /** True while at least one blocklist is proven to answer honestly through the resolver. */
  isConfigured: () => boolean;
  /** Why not, in plain words, when `isConfigured` is false (the monitor's reason). */
  notConfiguredReason?: () => string | undefined;
  /** Started with each fresh check; absent where nothing confirms (tests of other rules). */
  confirmResolver?: () => ResolverConfirmation;
}

export type NotConfigured = { ok: false; error: 'not_configured'; reason: string };

/** The codes a confirmed check fails with: the check's own, and the service not ready. */
export const confirmedCheckFailures = [...checkFailures, 'not_configured'] as const;

/**
 * How long a check waits, once done, for the confirmation started beside it: it asks one list's
 * test entry, one round trip like the check's own queries, so it is normally in first.
 */
export const confirmationGraceMs = 250;

/** The reason when the monitor gives none (a service built without one, as in tests). */
const resolverSilent = 'the service is not ready: its DNS resolver does not answer';

function notConfigured(readiness: CheckReadiness): NotConfigured {
  return {
    ok: false,
    error: 'not_configured',
    reason: readiness.notConfiguredReason?.() ?? resolverSilent,
  };
}

/** Why no check may run now, or undefined when one may: asked before any quota is taken. */
export function notReady(readiness: CheckReadiness): NotConfigured | undefined {
  return readiness.isConfigured() ? undefined : notConfigured(readiness);
}

/**
 * Runs `check` beside a confirmation of the resolver: not at all while the service is not
 * configured, and `not_configured` when the resolver answered a documented test entry falsely
 * during it (none of its answers can be shown or stored). `check` is any check that asks the DNS:
 * a `CheckOutcome`, or the outcome of a check that probes more (SMTP, HTTPS) with codes of its own.
 * `withoutLists`: a check that needs no list (the mail check) runs while none is proven too,
 * unconfirmed then, since no list's test entry can confirm the resolver.
 * The outcome leaves with its text cleaned for display (`cleanShownText`): the checks read TXT
 * records as the DNS server sent them, and quote them.
 */
export async function runConfirmed<Outcome extends { ok: boolean }>(
  readiness: CheckReadiness,
  check: () => Promise<Outcome>,
  { withoutLists = false }: { withoutLists?: boolean } = {},
): Promise<Outcome | NotConfigured> {
  const notYet = notReady(readiness);
  if (notYet && !withoutLists) return notYet;
  const confirmation = notYet ? undefined : readiness.confirmResolver?.();
  const outcome = await check();
  if ((await confirmation?.settle(confirmationGraceMs)) === 'lying')
    return notConfigured(readiness);
  return cleanShownText(outcome);
}
