import { spawn } from 'node:child_process';

/**
 * Runs `lines` as an ES module in a Node process of its own, with tsx's loader so it may import
 * the TypeScript sources, and resolves once that process exits: for what only a process's end
 * shows (a socket or a session that would hold it open). Killed after `timeoutMs`.
 */
export async function runChildScript(
  lines: readonly string[],
  timeoutMs = 15_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', lines.join('\n')],
    { stdio: ['ignore', 'pipe', 'inherit'], timeout: timeoutMs },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('exit', (...exit) => resolve(exit)),
  );
  return { code, signal, output };
}

/** An import of `path` (relative to the caller's `base`, its import.meta.url) for a child script. */
export function importOf(names: string, path: string, base: string): string {
  return `const { ${names} } = await import(${JSON.stringify(new URL(path, base).href)});`;
}
