import type { TlsaLookup as DnsTlsaLookup, TlsaOutcome } from '../../dns/index.js';
import {
  type AddressRange,
  callerNetwork,
  inAddressRanges,
  isPublicIpv4,
  isPublicIpv6,
} from '../../lib/index.js';
import type { SmtpProbe } from '../results/index.js';

/**
 * What the mail check asks of its runtime, passed in (docs/edge.md): an SMTP probe of one MX
 * address, the MTA-STS policy over HTTPS, and TLSA records with their DNSSEC status. Each is
 * given the exact address the check resolved and judged reachable, and connects there only
 * (no DNS of its own, so no rebinding); each ends when `signal` aborts.
 */

/**
 * Whether the check may reach PROBE_ALLOW_NETWORKS: only the operator's (a check or watch sent
 * with OPERATOR_TOKEN); every other reaches public addresses only.
 */
export interface ProbeReach {
  operator?: boolean;
}

/**
 * Whose check a probe is for, for the fair shares of the probe slots (`shareProbes` below): an
 * interactive check's caller (its quota subject), or a watch's re-check (not interactive).
 */
export interface ProbeParty extends ProbeReach {
  caller?: string;
  interactive?: boolean;
}

export interface SmtpProbeRequest extends ProbeParty {
  /** The MX host: the EHLO's peer, the TLS SNI and the name the certificate must match. */
  host: string;
  address: string;
  signal: AbortSignal;
}

/**
 * Greeting, EHLO, STARTTLS, the TLS handshake with SNI, QUIT; never MAIL FROM or RCPT TO. A
 * runtime that cannot open TCP port 25 (Workers) passes `{ unavailable: reason }` instead.
 */
export interface SmtpProber {
  probe(request: SmtpProbeRequest): Promise<SmtpProbe>;
}

export interface PolicyFetchRequest extends ProbeReach {
  /** `mta-sts.<domain>`: the SNI, the Host header and the name the certificate must match. */
  host: string;
  address: string;
  path: string;
  signal: AbortSignal;
}

export type PolicyFetchResult =
  { ok: true; body: string; contentType: string | null } | { ok: false; reason: string };

/** RFC 8461 §3.3: one GET, a certificate valid for the host, no redirects, bounded size and time. */
export interface PolicyFetcher {
  fetch(request: PolicyFetchRequest): Promise<PolicyFetchResult>;
}

/**
 * TLSA records (RFC 6698 §2) at a name, with the AD bit of the resolver's answer: the DNS layer's
 * types (src/dns/tlsa.ts), whose DoH lookup both runtimes can use; Node's UDP lookup answers the same.
 */
export type TlsaAnswer = TlsaOutcome;
export type TlsaLookup = DnsTlsaLookup;

/** The probe of an MX host that was not connected to, and why. */
export function notProbed(detail: string, address: string | null = null): SmtpProbe {
  return {
    status: 'not_probed',
    stage: null,
    address,
    banner: null,
    starttls: null,
    tls: null,
    certificate: null,
    detail,
  };
}

/**
 * The mail check's probes as a runtime gives them (docs/mail.md, "Bounds and safety"): Node builds
 * them from its configuration (src/node/probes/), Workers with `fetch` and no SMTP
 * (src/workers/probes/); both with the one rule of where a probe may connect.
 */
export interface MailProbes {
  /**
   * Whether the operator's probe may connect to an address: public (RFC 6890) or in
   * PROBE_ALLOW_NETWORKS. Every other check's probes reach public addresses only (`reachableBy`).
   */
  reachable: (address: string) => boolean;
  smtp: SmtpProber | { unavailable: string };
  policy: PolicyFetcher;
  /** TLSA with the AD bit; without it DANE is reported not checked. */
  tlsa?: TlsaLookup;
  /** SMTP_TIMEOUT_MS: a probe stage's bound; the probes end this plus `probeMarginMs` after a check starts. */
  timeoutMs: number;
}

/** What the probes may take past one stage's bound: the check answers within SMTP_TIMEOUT_MS and this. */
export const probeMarginMs = 3000;

/** SMTP_TIMEOUT_MS's default: where the runtime reads no such variable (Workers), the bound. */
export const defaultProbeTimeoutMs = 10_000;

/** A public address (the targets' RFC 6890 rules), or one PROBE_ALLOW_NETWORKS allows. */
export function probeReachable(
  allowNetworks: readonly AddressRange[],
): (address: string) => boolean {
  return (address) =>
    isPublicIpv4(address) || isPublicIpv6(address) || inAddressRanges(address, allowNetworks);
}

/** A public address by the targets' RFC 6890 rules: what every probe may reach. */
export function isPublicAddress(address: string): boolean {
  return isPublicIpv4(address) || isPublicIpv6(address);
}

/**
 * Where one check's probes may connect: the operator's (sent with OPERATOR_TOKEN) where
 * `reachable` allows, PROBE_ALLOW_NETWORKS included; anyone else's public addresses only, so no
 * anonymous caller reads an inside server's banner, certificate names or TLS errors.
 */
export function reachableBy(
  reachable: (address: string) => boolean,
  reach: ProbeReach,
): (address: string) => boolean {
  return reach.operator === true
    ? reachable
    : (address) => isPublicAddress(address) && reachable(address);
}

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

/** The words every probe refused for the service's capacity begins with. */
export const capacityShortage = 'the service’s probe capacity is in use';

/**
 * A probe not made for the service's own limits, its capacity or a destination's bound
 * (`boundProbes`): not a finding about the server.
 */
export function isCapacityShortage(probe: SmtpProbe): boolean {
  return serviceLimitOf(probe) !== undefined;
}

/** Which of the service's limits left a probe unmade (its reason's first words), if any. */
export function serviceLimitOf(probe: SmtpProbe): string | undefined {
  if (probe.status !== 'not_probed') return undefined;
  const detail = probe.detail ?? '';
  return [capacityShortage, destinationBound].find((limit) => detail.startsWith(limit));
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
 * process probes a host once per window from its cache, so the bound is met only by many MX
 * names on one address (one hostile zone's, or a big provider's tenants).
 */
export const destinationBounds: DestinationBounds = {
  perAddress: 30,
  perNetwork: 90,
  windowMs: 600_000,
};

/** The words every probe refused for a destination's bound begins with. */
export const destinationBound = 'the service’s bound on probes to this destination is reached';

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

/** How long an MX probe's answer is kept: as long as a mail check's result is (RESULT_TTL_S's default). */
export const probeCacheMs = 600_000;
/** Probe answers kept at most: a process's worth of distinct MX hosts. */
const maxCachedProbes = 10_000;

/** The mail tool's probes from the cache, and the watches' made afresh with the cache behind. */
export interface CachedProbes {
  /** The mail tool's: a kept answer first, a probe in flight joined. */
  probes: MailProbes;
  /**
   * A watch's re-check's: probed afresh, as it asks the DNS afresh, and the answer kept; when a
   * destination's bound refuses the probe, the kept answer where there is one.
   */
  fresh: MailProbes;
}

/**
 * MX probes kept per host, address and reach apart from the check's DNS part (docs/mail.md,
 * "Bounds and safety"): a check that differs only in its DKIM selectors, or another domain whose
 * MX is the same host, re-probes nothing for `ttlMs`, and a probe in flight is joined, not
 * repeated. What the service's own limits left unprobed is not kept.
 */
export function cacheProbes(probes: MailProbes, ttlMs: number, now: () => number): CachedProbes {
  if ('unavailable' in probes.smtp) return { probes, fresh: probes };
  const inner: SmtpProber = probes.smtp;
  const kept = new Map<string, { at: number; answer: Promise<SmtpProbe> }>();
  const keyOf = (request: SmtpProbeRequest) =>
    `${request.operator === true ? 'operator' : 'public'} ${request.host} ${request.address}`;
  const keptAnswer = (key: string) => {
    const found = kept.get(key);
    return found !== undefined && now() - found.at < ttlMs ? found.answer : undefined;
  };
  const keep = (key: string, answer: Promise<SmtpProbe>) => {
    // The oldest first: a Map iterates in insertion order.
    if (kept.size >= maxCachedProbes) kept.delete(kept.keys().next().value!);
    kept.delete(key);
    kept.set(key, { at: now(), answer });
    void answer.then((probe) => {
      if (probe.status === 'not_probed' && kept.get(key)?.answer === answer) kept.delete(key);
    });
  };
  const cached: SmtpProber = {
    probe(request) {
      const key = keyOf(request);
      const found = keptAnswer(key);
      if (found !== undefined) return found;
      const answer = inner.probe(request);
      keep(key, answer);
      return answer;
    },
  };
  const fresh: SmtpProber = {
    async probe(request) {
      const key = keyOf(request);
      const probe = await inner.probe(request);
      if (probe.status !== 'not_probed') {
        keep(key, Promise.resolve(probe));
        return probe;
      }
      const bounded = probe.detail?.startsWith(destinationBound) === true;
      return (bounded ? await keptAnswer(key) : undefined) ?? probe;
    },
  };
  return { probes: { ...probes, smtp: cached }, fresh: { ...probes, smtp: fresh } };
}

/**
 * The service's probes, one set for the mail tool and the mail watches together: a probe takes a
 * slot of its share first, is then counted against its destination's bounds (a probe refused a
 * slot is not counted), and the mail tool's are answered from the probe cache (`cacheProbes`).
 */
export function serviceProbes(
  probes: MailProbes,
  counters: ProbeCounters,
  now: () => number,
): CachedProbes {
  const bounded = boundProbes(probes, counters, destinationBounds);
  return cacheProbes(shareProbes(bounded, defaultProbeShares(probeSlots)), probeCacheMs, now);
}
