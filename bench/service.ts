import { type ChildProcessByStdio, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { freePort } from '../fixtures/free-port.js';
import { processTreeCpuMs } from './process-cpu.js';

/**
 * The service in its own process, as `npm start` runs it (`node <its flags> dist/server.js`, read
 * from package.json's start script, so the child's pid is the service's own and its RSS can be
 * read), on a free port of 127.0.0.1. The compiled
 * code is what runs in production: under tsx a CPU profile also pays for its loader and source
 * maps. `ensureBuilt` (run.ts, first) rebuilds dist/ when a source file is newer.
 */

export function ensureBuilt(): void {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the build of dist/ failed');
}

export interface RunningService {
  pid: number;
  /** `http://127.0.0.1:<port>/tools/ip-reputation`. */
  base: string;
  port: number;
  /** STORE_URL the service runs on. */
  storeUrl: string;
  /** CPU time the service has used (user + system, all threads, with WORKERS all processes), in ms. */
  cpuMs(): Promise<number>;
  /** VmRSS and VmHWM of the service process, in MiB. */
  memory(): Promise<{ rssMiB: number; hwmMiB: number }>;
  /** SIGTERM (the service's graceful stop, which lets --cpu-prof write), SIGKILL after 15 s. */
  stop(): Promise<void>;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const basePath = '/tools/ip-reputation';
const readyTimeoutMs = 60_000;
const stopTimeoutMs = 15_000;

/**
 * The node flags of `npm start` (package.json's `start`, `node [flags] dist/server.js`): every
 * service of the bench runs with them, as a deployment does, and an experiment's own flags come
 * after them (V8 takes the last value of a flag given twice).
 */
export function startFlags(packageJson = join(root, 'package.json')): string[] {
  const { scripts } = JSON.parse(readFileSync(packageJson, 'utf8')) as {
    scripts: { start: string };
  };
  const words = scripts.start.split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'dist/server.js') {
    throw new Error(`npm start is not "node [flags] dist/server.js": ${scripts.start}`);
  }
  return words.slice(1, -1);
}

const started = new Set<ChildProcessByStdio<null, Readable, Readable>>();
/** Whatever happens to the benchmark, no service process outlives it. */
export function killServices(): void {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
}

export async function startService(options: {
  dnsServer: string;
  env?: Record<string, string>;
  /** Directory for a V8 CPU profile of the service (node --cpu-prof). */
  cpuProfileDir?: string;
  /** More node flags for the service (experiments: --max-old-space-size=..., --trace-gc). */
  nodeFlags?: string[];
  /** The compiled entry point, relative to the repository (experiments: a copy of dist/). */
  entry?: string;
  /** Every line the service writes to stdout (its logs, --trace-gc lines). */
  onLine?: (line: string) => void;
}): Promise<RunningService> {
  const port = await freePort();
  // The default kind of store (SQLite) unless the caller names one, in a file of its own: the
  // benchmark never writes data/reputation.db into the repository.
  const storeUrl = options.env?.STORE_URL ?? `sqlite:${temporarySqliteFile()}`;
  const profiling = options.cpuProfileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`]
    : [];
  const flags = [...startFlags(), ...profiling, ...(options.nodeFlags ?? [])];
  const child = spawn(process.execPath, [...flags, options.entry ?? 'dist/server.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DNS_SERVERS: options.dnsServer,
      LOG_LEVEL: 'error',
      DAILY_LIMIT: '10000000',
      SELFTEST_INTERVAL_S: '86400',
      // The load generator is one client of many connections (64 in section 4).
      MAX_CONNECTIONS_PER_CLIENT: '512',
      ...options.env,
      STORE_URL: storeUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  // Both pipes are always drained: a full pipe would block the service's writes.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    keep(chunk);
    if (!options.onLine) return;
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) options.onLine(line);
  });
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const base = `http://127.0.0.1:${port}${basePath}`;

  // LOG_LEVEL=error hides the `listening` line: ready is when the status route answers.
  const deadline = performance.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited (${child.exitCode}): ${output}`);
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service not ready in ${readyTimeoutMs} ms: ${output}`);
    }
    try {
      const response = await fetch(`${base}/ip/v1/status`);
      const status = (await response.json()) as { configured?: boolean };
      if (response.ok && status.configured) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const pid = child.pid!;
  return {
    pid,
    base,
    port,
    storeUrl,
    cpuMs: () => processTreeCpuMs(pid),
    async memory() {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const kib = (field: string) =>
        Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
      return {
        rssMiB: Math.round(kib('VmRSS') / 102.4) / 10,
        hwmMiB: Math.round(kib('VmHWM') / 102.4) / 10,
      };
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
      await exited;
      clearTimeout(timer);
      started.delete(child);
    },
  };
}

/**
 * One check and its card, through HTTP: the service draws a warm-up card on each card thread at
 * start, without waiting for it; once a card of ours is back, those threads are loaded and the
 * process is at its resting size, ready for a memory baseline.
 */
export async function waitForCardThreads(service: RunningService, address: string): Promise<void> {
  const checked = await fetch(`${service.base}/ip/v1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ target: address }),
  });
  if (checked.status !== 200) throw new Error(`the first check answered ${checked.status}`);
  const { token } = (await checked.json()) as { token: string };
  const card = await fetch(`${service.base}/ip/v1/share/${token}/card`);
  await card.arrayBuffer();
  if (card.status !== 200) throw new Error(`the first card answered ${card.status}`);
}

/** A fresh SQLite file path in /tmp. */
export function temporarySqliteFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'bench-store-')), 'reputation.db');
}
