import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The bench's handle on the bare client of bare-check-process.ts, in its own process. */

export interface BareCheckChild {
  pid: number;
  /** Checks `concurrency` at a time; resolves once every one is done or given up. */
  run(
    addresses: readonly string[],
    concurrency: number,
  ): Promise<{ done: number; failed: number; ms: number }>;
  /** Closes its stdin and waits for it to exit (and write its profile). */
  stop(): Promise<void>;
}

export async function startBareCheckChild(
  server: string,
  ipZones: readonly string[],
  testEntries: readonly string[],
  /** Directory for a V8 CPU profile of the client (node --cpu-prof), as the service's. */
  cpuProfileDir?: string,
): Promise<BareCheckChild> {
  const script = fileURLToPath(new URL('./bare-check-process.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    [
      ...(cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : []),
      '--import',
      import.meta.resolve('tsx'),
      script,
      server,
      JSON.stringify(ipZones),
      JSON.stringify(testEntries),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    pid: child.pid!,
    async run(addresses, concurrency) {
      child.stdin.write(`${JSON.stringify({ addresses, concurrency })}\n`);
      const line = await lines.next();
      if (line.done) throw new Error('the bare client exited');
      return JSON.parse(line.value as string) as { done: number; failed: number; ms: number };
    },
    async stop() {
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
    },
  };
}
