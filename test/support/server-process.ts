import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { withReportsOutsideTheRepository } from './reports-location.js';

/**
 * The service in a process of its own, on the compiled dist/server.js that `npm start` runs
 * (without its tuning of the young generation), which the run's global setup builds from src/ when
 * it is older
 * (test/support/build-global-setup.ts); from any working directory: for tests of what outlives a
 * process (a restart, two processes on one store, WORKERS). The caller names the store; nothing
 * here defaults to the repository's data/.
 */

type Child = ChildProcessByStdio<null, Readable, Readable>;

export interface ServerProcess {
  /** `http://127.0.0.1:<port>/tools/ip-reputation`, from the first `listening` log line. */
  url: string;
  /** The JSON log lines so far. */
  lines: Array<Record<string, unknown>>;
  /** SIGTERM (or the signal given) and the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The repository's compiled server (src/server.ts under tsx's loader starts slower: docs/benchmarks.md). */
export const compiledServer = fileURLToPath(new URL('../../dist/server.js', import.meta.url));
const running = new Set<Child>();

/** Kills whatever a test left running (afterEach). */
export function killServerProcesses(): void {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  running.clear();
}

/**
 * Where it runs, (`compiled`) another compiled `server.js` than the repository's, and
 * (`nodeFlags`) flags for node before it, as `npm start` gives its own.
 */
export interface ProcessOptions {
  cwd?: string;
  compiled?: string;
  nodeFlags?: readonly string[];
}

function spawnServer(
  env: Record<string, string>,
  { cwd, compiled, nodeFlags = [] }: ProcessOptions,
): Child {
  const child = spawn(process.execPath, [...nodeFlags, compiled ?? compiledServer], {
    ...(cwd ? { cwd } : {}),
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      DNS_TIMEOUT_MS: '1000',
      DNS_RETRIES: '0',
      // Unset, STORE_URL is a SQLite file in `cwd`, where the reports' default lies beside it; a
      // file of its own, not memory, as WORKERS=N share it.
      ...(env.STORE_URL === undefined
        ? env
        : withReportsOutsideTheRepository(
            env,
            () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'reports-')), 'reports.db')}`,
          )),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Starts the service and resolves once it listens; rejects with its output if it exits first. */
export async function startServerProcess(
  env: Record<string, string>,
  options: ProcessOptions & { listeners?: number } = {},
): Promise<ServerProcess> {
  const child = spawnServer(env, options);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines: Array<Record<string, unknown>> = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let pending = '';
    let listening: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const complete = pending.split('\n');
      pending = complete.pop() ?? '';
      for (const text of complete) {
        const line = JSON.parse(text) as Record<string, unknown>;
        lines.push(line);
        if (line.msg === 'listening' && typeof line.url === 'string') {
          listening = [...listening, line.url];
          // With WORKERS, every worker says where it listens: wait for all of them.
          if (listening.length === (options.listeners ?? 1)) resolve(line.url);
        }
      }
    });
    void exited.then((code) => reject(new Error(`server exited (${code}): ${stderr}`)));
  });
  return {
    url,
    lines,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** What a start that was expected to fail printed, and its exit code. */
export interface FailedStart {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a start that is expected to fail: its exit code and everything it wrote. */
export async function failedStart(
  env: Record<string, string>,
  options: ProcessOptions = {},
): Promise<FailedStart> {
  const child = spawnServer(env, options);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

/**
 * docs/configuration.md#start-up-failures: exit 1 with exactly one line on stderr, only JSON log
 * lines on stdout, and no stack frame anywhere. Returns that line.
 */
export function expectOneLineFailure(failure: FailedStart): string {
  expect(failure.code).toBe(1);
  expect(`${failure.stdout}${failure.stderr}`).not.toMatch(/^\s+at /m);
  const lines = failure.stderr.split('\n');
  expect(lines.at(-1)).toBe('');
  expect(lines).toHaveLength(2);
  for (const line of failure.stdout.split('\n').filter((text) => text !== '')) {
    expect(() => JSON.parse(line) as unknown, line).not.toThrow();
  }
  return lines[0]!;
}

/** POST a JSON body. */
export function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}
