import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadZoneList } from '../src/reputation/zones.js';
import { type FixtureDnsServer, startFixtureDnsServer } from './fixtures/dns-server.js';
import { dnsblWorld } from './fixtures/dnsbl-world.js';

/**
 * `src/server.ts` as `npm start` runs it, in its own process: it reports where it listens, serves
 * the API, and on SIGTERM stops accepting, finishes the requests in flight and exits 0.
 */

type ServerProcess = ChildProcessByStdio<null, Readable, Readable>;

interface Running {
  child: ServerProcess;
  /** `http://host:port/tools/ip-reputation` from the `listening` log line. */
  url: string;
  stdout: string[];
  exited: Promise<number | null>;
}

const root = fileURLToPath(new URL('..', import.meta.url));

let dns: FixtureDnsServer;
beforeAll(async () => {
  dns = await startFixtureDnsServer({ zones: dnsblWorld(await loadZoneList(), {}) });
});
afterAll(() => dns.close());

const children: ServerProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  dns.setLatency(0);
});

async function startServer(env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      DNS_SERVERS: dns.address,
      DNS_TIMEOUT_MS: '1000',
      DNS_RETRIES: '0',
      STORE_URL: 'memory:',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const stdout: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        stdout.push(line);
        const entry = JSON.parse(line) as { msg: string; url?: string };
        if (entry.msg === 'listening' && entry.url) resolve(entry.url);
      }
    });
    void exited.then((code) => reject(new Error(`server exited (${code}): ${stderr}`)));
  });
  return { child, url, stdout, exited };
}

describe('src/server.ts', () => {
  it('logs the real address it listens on when PORT=0, as a JSON line, and serves the API', async () => {
    const server = await startServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*\/tools\/ip-reputation$/);
    const status = await fetch(`${server.url}/ip/v1/status`);
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ configured: true, dailyLimit: 50 });
    const check = await fetch(`${server.url}/ip/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ target: '8.8.4.4' }),
    });
    expect(check.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('writes a usable URL when it listens on an IPv6 address, and exits 0 on SIGINT', async () => {
    const server = await startServer({ HOST: '::1' });
    expect(server.url).toMatch(/^http:\/\/\[::1\]:[1-9]\d*\/tools\/ip-reputation$/);
    expect((await fetch(`${server.url}/ip/v1/status`)).status).toBe(200);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
  });

  it('on SIGTERM finishes the request in flight with 200, refuses new connections, exits 0', async () => {
    const server = await startServer();
    // A keep-alive connection already open, as a browser or proxy would hold one.
    expect((await fetch(`${server.url}/ip/v1/status`)).status).toBe(200);
    dns.setLatency(600);
    const started = performance.now();
    const inFlight = fetch(`${server.url}/ip/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ target: '1.1.1.1' }),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(fetch(`${server.url}/ip/v1/status`)).rejects.toThrow();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ip: '1.1.1.1', from_cache: false });
    expect(await server.exited).toBe(0);
    // Exits once the last response is out, not after the keep-alive timeout or the 10 s limit.
    expect(performance.now() - started).toBeLessThan(3000);
    const logged = server.stdout.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(logged).toContain('shutting down');
  });
});
