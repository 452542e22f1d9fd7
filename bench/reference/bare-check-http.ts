import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The bench's handle on bare-check-http-server.ts, the bare client behind a bare HTTP server. */

export interface BareCheckHttp {
  pid: number;
  /** `http://127.0.0.1:<port>`: POST `/ip/v1` as to the service. */
  base: string;
  stop(): Promise<void>;
}

export async function startBareCheckHttp(
  server: string,
  ipZones: readonly string[],
  testEntries: readonly string[],
): Promise<BareCheckHttp> {
  const script = fileURLToPath(new URL('./bare-check-http-server.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    [
      '--import',
      import.meta.resolve('tsx'),
      script,
      server,
      JSON.stringify(ipZones),
      JSON.stringify(testEntries),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  if (line.done) throw new Error('the bare HTTP check server exited before listening');
  return {
    pid: child.pid!,
    base: `http://127.0.0.1:${line.value as string}`,
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
