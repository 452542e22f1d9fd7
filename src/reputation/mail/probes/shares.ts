import type { SmtpProbe } from '../../results/index.js';
import { type MailProbes, notProbed, type SmtpProber, type SmtpProbeRequest } from './contract.js';
import { fleetShares, type ShareFleet } from './fleet-shares.js';
import { capacityShortage } from './service-limits.js';

/**
 * Fair shares of the SMTP probe slots (docs/mail.md, "Bounds and safety"): the slots are shared
 * so that no group of callers can take them all. Interactive checks (the mail tool's POST) and
 * the watches' re-checks each keep a share of a process's slots the other cannot take; one caller
 * (its quota subject) and one network (an IPv4 /24, an IPv6 /48) may hold only part of the
 * interactive share, counted across every process sharing the store. A probe refused a slot is
 * `not_probed` with the capacity reason (`isCapacityShortage`): the service's shortage, not a
 * finding about the server, so no rule reads it as a server that did not answer, a watch keeps
 * what it knew, and the result is not cached.
 */

export interface ProbeShareLimits {
  /** Slots the process has: every probe, every group. */
  total: number;
  /** Slots interactive checks may hold together: the rest is the watches'. */
  interactive: number;
  /** Slots the watches' re-checks may hold together: the rest is the interactive checks'. */
  watches: number;
  /** Slots one caller's checks may hold, every process of the fleet together. */
  perCaller: number;
  /** Slots one network's callers may hold (an IPv4 /24, an IPv6 /48), the fleet together. */
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

/**
 * The SMTP prober with its slots shared fairly; every other probe as it was. The slots of the
 * process (its total, the interactive checks' and the watches') are counted in the process: they
 * are its sockets and its memory. A caller's and a network's are counted across the fleet
 * (`fleetShares`), taken once the process has a slot.
 */
export function shareProbes(
  probes: MailProbes,
  limits: ProbeShareLimits,
  fleet: ShareFleet,
): MailProbes {
  if ('unavailable' in probes.smtp) return probes;
  const inner: SmtpProber = probes.smtp;
  const leasesOf = fleetShares(fleet, limits, probes.timeoutMs);
  const held = new Map<string, number>();
  const count = (key: string) => held.get(key) ?? 0;
  const slotsOf = (request: SmtpProbeRequest): [string, number][] => [
    ['total', limits.total],
    request.interactive === true
      ? ['interactive', limits.interactive]
      : ['watches', limits.watches],
  ];
  const refusal = (request: SmtpProbeRequest, why: string) =>
    notProbed(
      `${capacityShortage} (${why}): not a finding about this server; check again shortly`,
      request.address,
    );
  const probeWithLeases = async (request: SmtpProbeRequest): Promise<SmtpProbe> => {
    if (request.interactive !== true) return inner.probe(request);
    const leases = await leasesOf(request.caller ?? 'anonymous');
    // A store that cannot count lets no probe past a share it cannot see (as for the bounds).
    if (leases === 'unknown') return refusal(request, 'the shares could not be counted');
    if (!('release' in leases)) {
      return refusal(request, `${leases.group} share, ${leases.limit} at once`);
    }
    try {
      return await inner.probe(request);
    } finally {
      await leases.release();
    }
  };
  const smtp: SmtpProber = {
    async probe(request) {
      const slots = slotsOf(request);
      const full = slots.find(([key, limit]) => count(key) >= limit);
      if (full !== undefined) return refusal(request, `${full[0]} share, ${full[1]} at once`);
      for (const [key] of slots) held.set(key, count(key) + 1);
      try {
        return await probeWithLeases(request);
      } finally {
        for (const [key] of slots) {
          const left = count(key) - 1;
          if (left > 0) held.set(key, left);
          else held.delete(key);
        }
      }
    },
  };
  return { ...probes, smtp };
}
