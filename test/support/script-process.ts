import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/**
 * The project's scripts (`npm run demo`, `npm run demo:receiver`) in processes of their own, as a
 * person runs them: their output gathered as it comes, and every one stopped by `stopScripts`
 * (a suite's afterEach).
 */

const tsxLoader = import.meta.resolve('tsx');
const script = (name: string) => fileURLToPath(new URL(`../../scripts/${name}`, import.meta.url));

type Child = ChildProcessByStdio<Writable | null, Readable, Readable>;
const children: Child[] = [];

/** Stops every script started since the last call: SIGTERM, then SIGKILL after 5 s. */
export async function stopScripts(): Promise<void> {
  await Promise.all(
    children.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killed);
    }),
  );
}

/** A script under tsx with `env` over a bare environment; its output gathered as it comes. */
export function runScript(name: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', tsxLoader, script(name), ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  const output = { text: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.text += chunk.toString()));
  return { child, output };
}

/**
 * Waits up to 45 s for `test` to hold of the output so far (the demo's start on a loaded
 * machine); throws with the output if not.
 */
export async function until(
  what: string,
  output: { text: string },
  test: (text: string) => boolean,
): Promise<void> {
  const deadline = Date.now() + 45_000;
  while (!test(output.text)) {
    if (Date.now() > deadline) throw new Error(`no ${what} in:\n${output.text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
