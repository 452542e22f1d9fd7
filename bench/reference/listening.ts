import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Server } from 'node:http';

/**
 * The two ends of a reference server in a process of its own (bare-http-server.ts,
 * bare-check-http-server.ts): the server prints the port it listens on and stops on SIGTERM; the
 * bench starts it under tsx and reads that port.
 */

/** In the server's process: listens on a free port of 127.0.0.1, prints it, stops on SIGTERM. */
export function listenAndReport(server: Server, onClosed: () => void = () => {}): void {
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    console.log(typeof address === 'object' && address ? address.port : 0);
  });
  process.once('SIGTERM', () => {
    server.close(() => {
      onClosed();
      process.exit(0);
    });
    server.closeAllConnections();
  });
}

export interface ListeningChild {
  pid: number;
  /** `http://127.0.0.1:<port>`. */
  base: string;
  stop(): Promise<void>;
}

/** In the bench: starts `script` (a path) with `args`, and resolves once it printed its port. */
export async function startListening(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<ListeningChild> {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), script, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const [firstLine] = (await Promise.race([
    once(child.stdout, 'data'),
    exited.then(() => {
      throw new Error(`${script} exited before listening`);
    }),
  ])) as [Buffer];
  return {
    pid: child.pid!,
    base: `http://127.0.0.1:${Number.parseInt(firstLine.toString(), 10)}`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
