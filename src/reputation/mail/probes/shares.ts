import { callerNetwork } from '../../../lib/index.js';
import { type MailProbes, notProbed, type SmtpProber, type SmtpProbeRequest } from './contract.js';
import { capacityShortage } from './service-limits.js';

/**
 * Fair shares of the SMTP probe slots (docs/mail.md, "Bounds and safety"): the slots a process
 * has are shared so that no group of callers can take them all. Interactive checks (the mail
 * tool's POST) and the watches' re-checks each keep a share the other cannot take; one caller
 * (its quota subject) and one network (an IPv4 /24, an IPv6 /48) may hold only part of the
 * interactive share. A probe refused for want of a slot is `not_probed` with the capacity
 * reason (`isCapacityShortage`): the service's shortage, not a finding about the server, so no
 * rule reads it as a server that did not answer, a watch keeps what it knew, and the result is
 * not cached.
 */

export interface ProbeShareLimits {
  /** Slots the process has: every probe, every group. */
  total: number;
  /** Slots interactive checks may hold together: the rest is the watches'. */
  interactive: number;
  /** Slots the watches' re-checks may hold together: the rest is the interactive checks'. */
  watches: number;
  /** Slots one caller's checks may hold. */
  perCaller: number;
  /** Slots one network's callers may hold (an IPv4 /24, an IPv6 /48). */
  perNetwork: number;
}

/** Probes one process runs at once, every check together: 8 checks of 5 MX hosts. */
export const probeSlots = 40;

/**
 * The shares of `total` slots: interactive checks and watches three quarters each (so each keeps
 * a quarter the other cannot take), a caller a quarter, a network three eighths.
 */
export function defaultProbeShares(total: number): ProbeShareLimits {
  const quarter = Math.max(1, Math.floor(total / 4));
  return {
    total,
    interactive: total - quarter,
    watches: total - quarter,
    perCaller: Math.max(1, Math.floor(total / 4)),
    perNetwork: Math.max(1, Math.floor((total * 3) / 8)),
  };
}

/** The SMTP prober with its slots shared fairly; every other probe as it was. */
export function shareProbes(probes: MailProbes, limits: ProbeShareLimits): MailProbes {
  if ('unavailable' in probes.smtp) return probes;
  const inner: SmtpProber = probes.smtp;
  const held = new Map<string, number>();
  const count = (key: string) => held.get(key) ?? 0;
  const groupsOf = (request: SmtpProbeRequest): [string, number][] => {
    if (request.interactive !== true)
      return [
        ['total', limits.total],
        ['watches', limits.watches],
      ];
    const caller = request.caller ?? 'anonymous';
    return [
      ['total', limits.total],
      ['interactive', limits.interactive],
      [`caller ${caller}`, limits.perCaller],
      [`network ${callerNetwork(caller)}`, limits.perNetwork],
    ];
  };
  const smtp: SmtpProber = {
    async probe(request) {
      const groups = groupsOf(request);
      const full = groups.find(([key, limit]) => count(key) >= limit);
      if (full !== undefined) {
        const whose = full[0].split(' ')[0];
        return notProbed(
          `${capacityShortage} (${whose} share, ${full[1]} at once): not a finding about this server; check again shortly`,
          request.address,
        );
      }
      for (const [key] of groups) held.set(key, count(key) + 1);
      try {
        return await inner.probe(request);
      } finally {
        for (const [key] of groups) {
          const left = count(key) - 1;
          if (left > 0) held.set(key, left);
          else held.delete(key);
        }
      }
    },
  };
  return { ...probes, smtp };
}
