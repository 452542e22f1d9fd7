import { callerNetwork } from '../../../lib/index.js';
import { type MailProbes, notProbed, type SmtpProber } from './contract.js';
import { destinationBound } from './service-limits.js';

/**
 * Bounds per destination (docs/mail.md, "Bounds and safety"): SMTP probes to one address, and to
 * one network (an IPv4 /24, an IPv6 /48), per window, counted in the service's store so every
 * worker of `WORKERS=N` and every machine sharing the store keeps one count. Past a bound the
 * probe is not made: `not_probed` with the destination's reason, the service's limit and not a
 * finding (as a capacity shortage is: `isCapacityShortage`). Beyond the bound the probe cache
 * answers where it holds the host's probe (`cacheProbes`).
 */
export interface ProbeCounters {
  /** The Store's atomic counter: one more unless `limit` is reached, else undefined. */
  incrementWithin(key: string, limit: number, ttlMs: number): Promise<number | undefined>;
  /** The Store's counter moved by `by` (here -1: a count given back). */
  increment(key: string, by: number, ttlMs: number): Promise<number>;
}

export interface DestinationBounds {
  perAddress: number;
  perNetwork: number;
  windowMs: number;
}

/**
 * 30 sessions per address and 90 per /24 or /48 in 10 minutes (the probe cache's time): a
 * process probes a host once per window from its cache and a check one session per distinct
 * address, so the bound is met only by many checks naming other hosts on one address (one
 * hostile zone's many names, or a big provider's tenants).
 */
export const destinationBounds: DestinationBounds = {
  perAddress: 30,
  perNetwork: 90,
  windowMs: 600_000,
};

/** The SMTP prober bounded per destination address and network; every other probe as it was. */
export function boundProbes(
  probes: MailProbes,
  counters: ProbeCounters,
  bounds: DestinationBounds,
): MailProbes {
  if ('unavailable' in probes.smtp) return probes;
  const inner: SmtpProber = probes.smtp;
  const minutes = Math.round(bounds.windowMs / 60_000);
  // The window is a counter's life: it starts at the destination's first probe.
  const within = (key: string, limit: number) =>
    counters.incrementWithin(`probe-bound:${key}`, limit, bounds.windowMs);
  const refusal = async (address: string): Promise<string | undefined> => {
    const network = callerNetwork(address);
    try {
      if ((await within(`address ${address}`, bounds.perAddress)) === undefined)
        return `${bounds.perAddress} probes to this address in ${minutes} minutes`;
      if ((await within(`network ${network}`, bounds.perNetwork)) === undefined) {
        // A probe not made is not counted: the address gets its count back.
        await counters.increment(`probe-bound:address ${address}`, -1, bounds.windowMs);
        return `${bounds.perNetwork} probes to ${network} in ${minutes} minutes`;
      }
      return undefined;
    } catch {
      // A store that cannot count lets no probe past an unknown bound.
      return 'the bound could not be counted';
    }
  };
  const smtp: SmtpProber = {
    async probe(request) {
      const refused = await refusal(request.address);
      if (refused === undefined) return inner.probe(request);
      return notProbed(
        `${destinationBound} (${refused}): not a finding about this server; check again later`,
        request.address,
      );
    },
  };
  return { ...probes, smtp };
}
