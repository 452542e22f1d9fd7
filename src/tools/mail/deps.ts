import type { MailCheckDeps } from '../../reputation/index.js';

/**
 * What the runtime gives the mail tool (docs/mail.md): the probes the check connects with, the
 * rule of where they may connect, and each stage's bound. Node builds them from its
 * configuration (src/node/mail-probes.ts), Workers with `fetch` and no SMTP
 * (src/workers/platform.ts).
 */
export type MailProbes = Pick<MailCheckDeps, 'reachable' | 'smtp' | 'policy' | 'tlsa'> & {
  /** SMTP_TIMEOUT_MS: a probe stage's bound; the probes end this plus `probeMarginMs` after a check starts. */
  timeoutMs: number;
};

/** What the probes may take past one stage's bound: the check answers within SMTP_TIMEOUT_MS and this. */
export const probeMarginMs = 3000;
