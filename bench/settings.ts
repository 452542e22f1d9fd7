import type { Timeouts } from './reference/peer.js';

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
    /** Section 1's IPv6 row: sequential uncached checks of IPv6 addresses. */
    ipv6LatencySamples: 100,
    /** Addresses the doh section checks through both transports, one after the other. */
    dohSamples: 100,
    /** Checks measured with one list silent (after the ones that put it on hold). */
    silentSamples: 80,
    throughputRounds: 2,
    throughputPerRound: 1000,
    /**
     * Section 2's CPU rows: checks of a fresh memory-store service, one at a time and 24 at a
     * time, after a warm-up of this many checks 24 at a time (docs/benchmarks.md, "Warm-up").
     */
    cpuWarmupChecks: envNumber(env, 'BENCH_CPU_WARMUP', 4000),
    cpuSequentialChecks: 300,
    cpuLoadedChecks: 1200,
    cpuLoadedConcurrency: 24,
    /**
     * Section 14 (answers that trickle): the service's uncounted checks 24 at a time before the
     * rounds, the rounds, and each round's checks one at a time and 24 at a time, for the service
     * and the bare client alike (the bare client warms up on the first thousand).
     */
    trickleWarmupChecks: envNumber(env, 'BENCH_TRICKLE_WARMUP', 3000),
    trickleBareWarmupChecks: 1000,
    trickleRounds: envNumber(env, 'BENCH_TRICKLE_ROUNDS', 3),
    trickleSequentialChecks: 150,
    trickleLoadedChecks: 600,
    /** Addresses each side of section 3 checks before its rounds, uncounted. */
    peerWarmupChecks: 2000,
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
    /** Section 7: distinct cards drawn at once beside status reads (400, 32 at a time). */
    cardFloodCards: envNumber(env, 'BENCH_CARD_FLOOD', 400),
    cardFloodConcurrency: 32,
    /** Section 8: how long the soak's mixed traffic runs, in seconds. */
    soakSeconds: envNumber(env, 'BENCH_SOAK_S', 180),
    /** Requests per second of each kind in the soak (about 85 in all), and the most in flight. */
    soakRates: {
      ipFresh: 5,
      ipCached: 16,
      domainFresh: 1,
      domainCached: 6,
      poolDiscover: 0.5,
      poolCheck: 1,
      card: 5,
      badge: 16,
      page: 3,
      status: 20,
      token: 10,
      hostile: 0.5,
    },
    soakMaxInFlight: 64,
    soakRssEveryS: 5,
    /** Domains whose ~60 KB SPF record makes a maximum-size result, checked before the soak. */
    maxResults: envNumber(env, 'BENCH_MAX_RESULTS', 200),
    /** Section 11: the watches' interval, in seconds, and the intervals measured. */
    watchIntervalS: envNumber(env, 'BENCH_WATCH_INTERVAL_S', 10),
    watchRounds: envNumber(env, 'BENCH_WATCH_ROUNDS', 3),
    /** Section 12: fresh mail domains checked uncounted (JIT, connections), then measured. */
    mailWarmupChecks: 10,
    mailSamples: 50,
    /** Our check deadline and the peer's timeout in the correctness part, the same on both sides. */
    peerTimeouts: { ms: 1500 } satisfies Timeouts,
    slowZone: { zone: 'psbl.surriel.com', latencyMs: 2500 },
    droppingZone: 'dnsbl.dronebl.org',
    /** Section 1's silent list: its server drops every query once the service is running. */
    silentZone: 'truncate.gbudb.net',
    /**
     * Section 1's list that drops every real look-up but answers its test entries (a caching
     * resolver in front of dead servers, or a list rate-limiting real queries).
     */
    testOnlyZone: 'ips.backscatterer.org',
  };
}

export type Settings = ReturnType<typeof readSettings>;
