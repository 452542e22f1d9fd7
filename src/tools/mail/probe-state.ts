import type { MailProbes, SmtpProber } from '../../reputation/index.js';

/**
 * The SMTP probe's state as GET /mail/v1/status shows it (docs/mail.md, "The API"): whether this
 * runtime can probe at all, and whether and when the last probe that tried to connect did. Many
 * hosts block port 25 outbound; an operator who sees every connection fail learns it here, not
 * from a domain's result. Where it connected is not said: the status is public, and the last MX
 * host, its address and what it answered belong to whoever asked for that check.
 */

export interface SmtpProbeState {
  available: boolean;
  /** Why the probe is unavailable, or why its last connection failed; null when neither. */
  reason: string | null;
  last_connect_outcome: {
    at: string;
    /** `connected`: the TCP connection opened (whatever followed); `failed`: it did not. */
    outcome: 'connected' | 'failed';
  } | null;
}

const blockedReason =
  'the last MX probe could not open a connection: port 25 may be blocked from this server';

/** The prober, with what it saw recorded: one per service, so the state is the process's. */
export function observeProber(
  smtp: MailProbes['smtp'],
  now: () => Date,
): { smtp: MailProbes['smtp']; state(): SmtpProbeState } {
  if ('unavailable' in smtp) {
    const state: SmtpProbeState = {
      available: false,
      reason: smtp.unavailable,
      last_connect_outcome: null,
    };
    return { smtp, state: () => state };
  }
  let last: SmtpProbeState['last_connect_outcome'] = null;
  const observed: SmtpProber = {
    async probe(request) {
      const result = await smtp.probe(request);
      // A probe that never tried (not public, the service's bound) says nothing of the network.
      if (result.status !== 'not_probed') {
        last = {
          at: now().toISOString(),
          outcome: result.stage === 'connect' ? 'failed' : 'connected',
        };
      }
      return result;
    },
  };
  return {
    smtp: observed,
    state: () => ({
      available: true,
      reason: last?.outcome === 'failed' ? blockedReason : null,
      last_connect_outcome: last,
    }),
  };
}
