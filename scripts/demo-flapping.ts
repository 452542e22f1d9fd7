import type { DnsblZone } from '../src/reputation/index.js';
import type { FixtureZone } from '../fixtures/dns-server.js';
import { demoWorld } from './demo-world.js';

/**
 * The demo world's one listing that comes and goes (`demoFlapping`): a timer serves the whole
 * world with the flapping address listed for one period, then without it for the next, and so on
 * from the start, which is a period unlisted. Every other name answers the same all along: each
 * flip serves `demoWorld` again, and only that listing differs.
 *
 * Why a cycle and not a one-off: a watch reports a change only once `confirmations` re-checks in
 * a row hear it (docs/watches.md, "Confirmed changes"), so a listing must stay long enough for
 * the confirming re-check, and come back for anyone who creates a watch later.
 */

export interface FlappingCycle {
  /** Whether the flapping address is listed now. */
  readonly listed: boolean;
  /** Stops the cycle where it is. */
  stop(): void;
}

export interface FlappingOptions {
  /** What serves the world: the fixture DNS server (`setZones` replaces its data live). */
  dns: { setZones(zones: FixtureZone[]): void };
  zones: DnsblZone[];
  /** How long each phase (listed, then not) lasts. */
  periodMs: number;
  /** Told after every flip, with the new state. */
  onFlip?: (listed: boolean) => void;
}

/** Starts unlisted (serving that world at once) and flips every `periodMs`; the timer is unref'd. */
export function startFlapping({ dns, zones, periodMs, onFlip }: FlappingOptions): FlappingCycle {
  let listed = false;
  dns.setZones(demoWorld(zones, { flappingListed: listed }));
  const timer = setInterval(() => {
    listed = !listed;
    dns.setZones(demoWorld(zones, { flappingListed: listed }));
    onFlip?.(listed);
  }, periodMs);
  timer.unref();
  return {
    get listed() {
      return listed;
    },
    stop: () => clearInterval(timer),
  };
}
