import { type MailCheckDeps, type MailProbes, probeMarginMs } from '../../reputation/index.js';
import { observeProber, type SmtpProbeState } from './probe-state.js';

/** What the mail tool's check needs of the service: its DNS, and the probes this runtime has. */
export type MailToolDeps = Pick<MailCheckDeps, 'resolver' | 'dnsbl' | 'deadlineMs' | 'now'> & {
  probes: MailProbes;
};

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
