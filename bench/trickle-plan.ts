import { seededRandom } from '../fixtures/seeded-random.js';
import { hostsZone } from './addresses.js';

/**
 * How long the trickling section's forwarder holds each answer (docs/benchmarks.md, "Answers that
 * trickle"): every zone a check asks (each IP list, the PTR's reverse zone, the PTR names' zone)
 * at a fixed distance of its own, spread evenly over 1 to 40 ms in an order drawn once from a
 * seed, and each answer up to `jitterMs` later than its zone's distance, drawn afresh per answer.
 * A real resolver's answers to one check come back so: one by one, from lists at different
 * distances, never in one burst.
 */

export interface TricklePlan {
  /** A zone (lower case, no trailing dot) and its distance, ms. */
  zones: [zone: string, ms: number][];
  /** Names under none of `zones`. */
  otherMs: number;
  jitterMs: number;
  seed: number;
}

const nearestMs = 1;
const farthestMs = 40;

/** The plan for a check of `ipZones` (the zones asked, as asked) with the bench's reverse DNS. */
export function tricklePlan(ipZones: readonly string[], seed = 45): TricklePlan {
  const zones = [...ipZones, '185.in-addr.arpa', hostsZone].map((zone) => zone.toLowerCase());
  const random = seededRandom(seed);
  // Fisher-Yates with the seeded generator: the same distances on every run.
  for (let index = zones.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [zones[index], zones[other]] = [zones[other]!, zones[index]!];
  }
  const step = (farthestMs - nearestMs) / Math.max(1, zones.length - 1);
  return {
    zones: zones.map((zone, index) => [zone, Math.round((nearestMs + step * index) * 10) / 10]),
    otherMs: 5,
    jitterMs: 3,
    seed,
  };
}

/** The delay of each question's answer under `plan`: its zone's distance plus fresh jitter. */
export function delayOf(plan: TricklePlan): (name: string) => number {
  const distances = new Map(plan.zones);
  const jitter = seededRandom(plan.seed + 1);
  return (name) => {
    // The longest zone the name is under: the name itself, then each suffix after a dot.
    for (let suffix = name; ;) {
      const distance = distances.get(suffix);
      if (distance !== undefined) return distance + jitter() * plan.jitterMs;
      const dot = suffix.indexOf('.');
      if (dot === -1) return plan.otherMs + jitter() * plan.jitterMs;
      suffix = suffix.slice(dot + 1);
    }
  };
}
