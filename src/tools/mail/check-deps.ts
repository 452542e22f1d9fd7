import { type Digest, hashOf, sameHash } from '../../lib/index.js';
import { type MailCheckDeps, type MailProbes, probeMarginMs } from '../../reputation/index.js';
import { observeProber, type SmtpProbeState } from './probe-state.js';

/** What the mail tool's check needs of the service: its DNS, and the probes this runtime has. */
export type MailToolDeps = Pick<MailCheckDeps, 'resolver' | 'dnsbl' | 'deadlineMs' | 'now'> & {
  probes: MailProbes;
  digest: Digest;
  /** OPERATOR_TOKEN: a check sent with it may probe PROBE_ALLOW_NETWORKS; unset, none may. */
  operatorToken?: string;
};

/**
 * Whether a check's bearer token is OPERATOR_TOKEN, compared as hashes in constant time (as a
 * watch's creation compares it): only the operator's checks probe PROBE_ALLOW_NETWORKS.
 */
export function operatorCheck(
  deps: Pick<MailToolDeps, 'digest' | 'operatorToken'>,
): (bearer: string | undefined) => Promise<boolean> {
  const { operatorToken, digest } = deps;
  if (operatorToken === undefined) return () => Promise.resolve(false);
  const expected = hashOf(operatorToken, digest);
  return async (bearer) =>
    bearer !== undefined && sameHash(await hashOf(bearer, digest), await expected);
}

/**
 * The mail check's dependencies: the runtime's probes, bounded as a whole by a stage's bound
 * (SMTP_TIMEOUT_MS) and `probeMarginMs`, with the SMTP prober observed so that
 * GET /mail/v1/status can show how its last connection fared (probe-state.ts).
 */
export function mailCheckDeps(deps: MailToolDeps): {
  checkDeps: MailCheckDeps;
  state: () => SmtpProbeState;
} {
  const { smtp, state } = observeProber(deps.probes.smtp, deps.now);
  return {
    checkDeps: {
      ...deps.probes,
      resolver: deps.resolver,
      dnsbl: deps.dnsbl,
      deadlineMs: deps.deadlineMs,
      now: deps.now,
      smtp,
      probeDeadlineMs: deps.probes.timeoutMs + probeMarginMs,
    },
    state,
  };
}
