import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './service.js';

/**
 * A redis-server (Debian's `redis-server` package) on a free port of 127.0.0.1 for the Redis
 * rows of section 4: no persistence, its working folder in /tmp. A missing binary stops the
 * benchmark with what to install.
 */

export interface BenchRedis {
  url: string;
  stop(): Promise<void>;
}

export async function startBenchRedis(): Promise<BenchRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    [
      ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      ...['--dir', await mkdtemp(join(tmpdir(), 'bench-redis-')), '--loglevel', 'notice'],
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = once(child, 'exit');
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error('redis-server not found: apt-get install redis-server')
          : error,
      ),
    );
    void exited.then(() => reject(new Error(`redis-server exited: ${output}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
