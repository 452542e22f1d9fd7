import { threadRunMsById } from './process-cpu.js';
import { percentile, round } from './stats.js';

/**
 * CPU per check of several processes doing the same kind of checks, measured side by side: in
 * each round every side runs its checks one at a time, then `concurrency` at a time, the sides
 * in an order that turns each round, so the machine's drift falls on all alike. A side's CPU is
 * its process's, every thread (/proc schedstat, bench/process-cpu.ts); its main thread's alone is
 * kept beside it.
 */

export type TurnMode = 'sequential' | 'loaded';

export interface CpuSide {
  name: string;
  pid: number;
  /** Runs the checks `inFlight` at a time. */
  run(addresses: readonly string[], inFlight: number): Promise<{ done: number; failed: number }>;
}

export interface TurnsResult {
  /** Each side's CPU per check of each round, ms, by mode. */
  perCheckMs: Record<TurnMode, Record<string, number[]>>;
  /** The same for the main thread alone. */
  perCheckMainMs: Record<TurnMode, Record<string, number[]>>;
  /** Runs with failed checks, in words. */
  failures: string[];
}

export async function cpuInTurns(options: {
  sides: readonly CpuSide[];
  rounds: number;
  concurrency: number;
  /** The addresses `side` checks in `round` and `mode`: fresh to its caches. */
  addresses(side: CpuSide, round: number, mode: TurnMode): readonly string[];
  onRound?: (round: number) => void;
}): Promise<TurnsResult> {
  const { sides } = options;
  const perCheckMs: TurnsResult['perCheckMs'] = { sequential: {}, loaded: {} };
  const perCheckMainMs: TurnsResult['perCheckMainMs'] = { sequential: {}, loaded: {} };
  for (const mode of ['sequential', 'loaded'] as const) {
    for (const side of sides) {
      perCheckMs[mode][side.name] = [];
      perCheckMainMs[mode][side.name] = [];
    }
  }
  const failures: string[] = [];
  for (let index = 0; index < options.rounds; index++) {
    const order = sides.map((_, at) => sides[(at + index) % sides.length]!);
    for (const mode of ['sequential', 'loaded'] as const) {
      const inFlight = mode === 'sequential' ? 1 : options.concurrency;
      for (const side of order) {
        // One reading of every thread before and after: the process's and the main thread's
        // figures cover the same moments.
        const before = await threadRunMsById(side.pid);
        const run = await side.run(options.addresses(side, index, mode), inFlight);
        const after = await threadRunMsById(side.pid);
        const mainMs = after.get(String(side.pid))! - before.get(String(side.pid))!;
        let cpuMs = 0;
        for (const [thread, ms] of after) cpuMs += ms - (before.get(thread) ?? 0);
        if (run.failed > 0) failures.push(`${side.name} ${mode} round ${index + 1}: ${run.failed}`);
        perCheckMs[mode][side.name]!.push(cpuMs / Math.max(1, run.done));
        perCheckMainMs[mode][side.name]!.push(mainMs / Math.max(1, run.done));
      }
    }
    options.onRound?.(index);
  }
  return { perCheckMs, perCheckMainMs, failures };
}

/**
 * A side's median round beside the reference's, and the median of the rounds' ratios: of the
 * whole process, or with `threads: 'main'` of the main threads alone.
 */
export function medianBeside(
  result: TurnsResult,
  mode: TurnMode,
  name: string,
  reference: string,
  threads: 'all' | 'main' = 'all',
): { ms: number; referenceMs: number; ratio: number; rounds: number[]; ratios: number[] } {
  const figures = threads === 'main' ? result.perCheckMainMs : result.perCheckMs;
  const own = figures[mode][name]!;
  const theirs = figures[mode][reference]!;
  const ratios = own.map((ms, index) => ms / theirs[index]!);
  return {
    ms: round(percentile(own, 50), 3),
    referenceMs: round(percentile(theirs, 50), 3),
    ratio: round(percentile(ratios, 50), 2),
    rounds: own.map((ms) => round(ms, 3)),
    ratios: ratios.map((ratio) => round(ratio, 2)),
  };
}
