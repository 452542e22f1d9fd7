import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../fixtures/free-port.js';

/**
 * `wrangler dev` as a developer runs it: the real command, offline, on a `--persist-to` folder,
 * in a process group of its own so that a test can stop it as a terminal or a process manager
 * does and find what it left behind.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const wrangler = join(root, 'node_modules/wrangler/bin/wrangler.js');
const basePath = '/tools/ip-reputation';

export interface WranglerDev {
  /** The API's root: `http://127.0.0.1:<port>/tools/ip-reputation`. */
  readonly url: string;
  /** What wrangler and the Worker printed so far, stdout and stderr together. */
  output(): string;
  /**
   * `terminated`: SIGTERM to the wrangler process alone, as `kill <pid>` or a process manager
   * sends it; `killed`: SIGKILL to wrangler and workerd at once, as a crash. Resolves once
   * wrangler has exited; whatever of its process group is still there is killed then.
   */
  stop(how: 'terminated' | 'killed'): Promise<void>;
  /** Whether a process of its group (workerd, esbuild) outlived wrangler, after `stop`. */
  leftBehind(): boolean;
}

export interface WranglerDevOptions {
  state: string;
  vars: Record<string, string>;
  /**
   * When the start is over: `answering` once `GET /healthz` answers 200 (a request, which arms
   * the watch clock: src/worker.ts); `listening` once wrangler prints "Ready on", with no request
   * made, so that what runs must have been started by the persisted state alone.
   */
  readyWhen: 'answering' | 'listening';
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startWranglerDev(options: WranglerDevOptions): Promise<WranglerDev> {
  const [port, inspector] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(
    process.execPath,
    [
      wrangler,
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(inspector),
      '--persist-to',
      options.state,
      ...Object.entries(options.vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        // Offline: no Request.cf sample from Cloudflare, no update check (docs/edge.md).
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        WRANGLER_HIDE_BANNER: 'true',
        WRANGLER_SEND_METRICS: 'false',
        CI: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  const pid = child.pid!;
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let leftBehind = false;

  const ready = async () => {
    if (options.readyWhen === 'listening')
      return output.includes(`Ready on http://127.0.0.1:${port}`);
    try {
      return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
    } catch {
      return false; // Not listening yet.
    }
  };
  const deadline = Date.now() + 60_000;
  while (!(await ready())) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited: ${output}`);
    if (Date.now() > deadline) {
      signalGroup(pid, 'SIGKILL');
      throw new Error(`wrangler dev was not ready in 60 s: ${output}`);
    }
    await sleep(250);
  }

  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    output: () => output,
    leftBehind: () => leftBehind,
    async stop(how) {
      if (how === 'killed') signalGroup(pid, 'SIGKILL');
      else child.kill('SIGTERM');
      const killer = setTimeout(() => signalGroup(pid, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
      // wrangler stops workerd as it exits; give its children a moment to go before judging.
      for (let waited = 0; groupAlive(pid) && waited < 3000; waited += 100) await sleep(100);
      leftBehind = groupAlive(pid);
      signalGroup(pid, 'SIGKILL');
    },
  };
}
