import type { Timeouts } from './peer.js';

/** The benchmark's sizes, durations and scenario, with the few the environment may change. */

/** A positive number from the environment, or the fallback. */
function envNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

export function readSettings(env: NodeJS.ProcessEnv) {
  return {
    injectedLatencyMs: 20,
    concurrency: 32,
    latencySamples: 240,
    throughputRounds: 2,
    throughputPerRound: 1000,
    peerRounds: 4,
    peerPerRound: 500,
    memoryChecks: envNumber(env, 'BENCH_MEMORY_CHECKS', 20_000),
    /** Per run: section 4 loads a bare server and four services (stores, WORKERS=2), two paths each. */
    cachedSeconds: 5,
    cachedConnections: envNumber(env, 'BENCH_CACHED_CONNECTIONS', 64),
    cachedPipelining: envNumber(env, 'BENCH_CACHED_PIPELINING', 10),
    /**
     * Uncached cards drawn before the measured ones, half of them listed: satori's code is still
     * being optimised by V8 over the first few dozen cards of a process (measured: cards 20-40
     * took 10-15 ms more than cards 60-80).
     */
    cardWarmups: 50,
    /** Measured uncached cards: section 1's 20 listed addresses, each followed by two clean ones. */
    cardCleanSamples: 40,
    cardSeconds: 5,
    cardConnections: 16,
    cardPipelining: 1,
    /** Our check deadline and the peer's timeout in the correctness part, the same on both sides. */
    peerTimeouts: { ms: 1500 } satisfies Timeouts,
    slowZone: { zone: 'psbl.surriel.com', latencyMs: 2500 },
    droppingZone: 'dnsbl.dronebl.org',
  };
}

export type Settings = ReturnType<typeof readSettings>;
