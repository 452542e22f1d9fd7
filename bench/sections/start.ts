import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../fixtures/free-port.js';
import { ensureBuilt, startFlags, temporarySqliteFile } from '../service.js';
import { percentile, round } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * 10. Start: the time from spawn to the first 200 of GET /healthz, and the process's RSS at that
 * moment, for `npm run dev`'s start (node with tsx's loader on src/) and `npm start`'s (plain node
 * on the compiled dist/, built first if stale). Each start is a fresh process on a SQLite file of
 * its own, with the bench's DNS; the median of BENCH_START_RUNS starts (default 5) is reported.
 * The service answers /healthz once it listens, which is after its first self-test.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const starts = {
  tsx: ['--import', 'tsx', 'src/server.ts'],
  compiled: [...startFlags(), 'dist/server.js'],
} as const;

async function startOnce(
  args: readonly string[],
  dnsServer: string,
): Promise<{ ms: number; rssMiB: number }> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DNS_SERVERS: dnsServer,
      LOG_LEVEL: 'error',
      STORE_URL: `sqlite:${temporarySqliteFile()}`,
    },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited ${child.exitCode}`);
      if (performance.now() - began > 60_000) throw new Error(`${args.join(' ')}: no 200 in 60 s`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const ms = performance.now() - began;
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
    const rssKiB = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1]);
    return { ms, rssMiB: rssKiB / 1024 };
  } finally {
    child.kill('SIGKILL');
  }
}

export async function measureStart(context: BenchContext): Promise<SectionResult> {
  const runs = Number(process.env.BENCH_START_RUNS ?? 5);
  ensureBuilt();
  const details: Record<string, { ms: number[]; rssMiB: number[] }> = {};
  for (const [name, args] of Object.entries(starts)) {
    details[name] = { ms: [], rssMiB: [] };
    for (let run = 0; run < runs; run++) {
      const start = await startOnce(args, context.dns.address);
      details[name].ms.push(round(start.ms));
      details[name].rssMiB.push(round(start.rssMiB));
    }
    context.progress(`start (${name}): ${details[name].ms.join(', ')} ms`);
  }
  const median = (values: number[]) => round(percentile(values, 50));
  const rows = Object.entries(details).flatMap(([name, figures]) => [
    {
      section: 10,
      measurement: `start to the first 200 of /healthz (${name === 'tsx' ? 'tsx, npm run dev' : 'compiled, npm start'}; median of ${runs})`,
      value: median(figures.ms),
      unit: 'ms',
    },
    {
      section: 10,
      measurement: `RSS at that first 200 (${name === 'tsx' ? 'tsx' : 'compiled'})`,
      value: median(figures.rssMiB),
      unit: 'MiB',
    },
  ]);
  return { rows, details };
}
