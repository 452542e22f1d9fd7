import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The fixture DNS server and its DoH endpoint (`transport-fixture.ts`) in a child process of its
 * own, so the CPU a script reads of itself is its own work, never the fixture's. Serves PTR and A
 * records for the first `addressCount` bench addresses; `stop()` ends it.
 */
export interface FixtureProcess {
  address: string;
  dohUrl: string;
  stop(): void;
}

export async function startFixtureProcess(addressCount: number): Promise<FixtureProcess> {
  const script = fileURLToPath(new URL('./transport-fixture.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), script, String(addressCount)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const ready = JSON.parse((await lines.next()).value as string) as {
    address: string;
    dohUrl: string;
  };
  return { ...ready, stop: () => child.stdin.end() };
}
