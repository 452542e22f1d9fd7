import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadZoneList } from '../src/reputation/lists/zones.js';
import { type FixtureDnsServer, startFixtureDnsServer } from '../fixtures/dns-server.js';
import { dnsblWorld } from '../fixtures/dnsbl-world.js';
import { freePort, takenPort } from '../fixtures/free-port.js';
import { parsePrometheusText, sampleValue } from './support/prometheus-text.js';
import { rawRequest } from './support/raw-http.js';
import { compiledServer, expectOneLineFailure, failedStart } from './support/server-process.js';

/**
 * `src/server.ts` as `npm start` runs it (compiled, dist/server.js), in its own process: it
 * reports where it listens, serves the API, and on SIGTERM stops accepting, finishes the requests
 * in flight and exits 0.
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
/** Servers shared by a describe block, ended by its afterAll rather than after each test. */
const hygieneServers: ServerProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && !hygieneServers.includes(child)) child.kill('SIGKILL');
  }
  dns.setLatency(0);
});

async function startServer(env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, [compiledServer], {
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

// A server process takes seconds to start on a machine busy with the rest of the suite.
describe('src/server.ts', { timeout: 60_000 }, () => {
  it('tells a newcomer offline that checks answer 503 and that npm run demo works offline', async () => {
    // Nothing answers on port 9: a machine without outside DNS, as a fresh clone on a laptop.
    const server = await startServer({ DNS_SERVERS: '127.0.0.1:9' });
    const warning = server.stdout
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => String(entry.msg).startsWith('not configured'));
    expect(warning).toMatchObject({
      level: 'error',
      msg: expect.stringContaining('503 not_configured'),
      reason: expect.stringContaining('DNS_SERVERS'),
      tryOffline: expect.stringMatching(/^npm run demo serves the API over a bundled DNS world/),
    });
  });

  it('writes a usable URL when it listens on an IPv6 address, and exits 0 on SIGINT', async () => {
    const server = await startServer({ HOST: '::1' });
    expect(server.url).toMatch(/^http:\/\/\[::1\]:[1-9]\d*\/tools\/ip-reputation$/);
    expect((await fetch(`${server.url}/ip/v1/status`)).status).toBe(200);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
  });

  // One start for both: the address it logs and serves on, then its stop.
  it('logs the real address it listens on when PORT=0, as a JSON line, and serves the API; on SIGTERM finishes the request in flight with 200, refuses new connections, exits 0', async () => {
    const server = await startServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*\/tools\/ip-reputation$/);
    // A keep-alive connection already open, as a browser or proxy would hold one.
    const status = await fetch(`${server.url}/ip/v1/status`);
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ configured: true, dailyLimit: 50 });
    const check = await fetch(`${server.url}/ip/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ target: '8.8.4.4' }),
    });
    expect(check.status).toBe(200);
    await check.arrayBuffer();
    dns.setLatency(600);
    const started = performance.now();
    const inFlight = fetch(`${server.url}/ip/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ target: '1.1.1.1' }),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill('SIGTERM');
    // The signal reaches a busy process when it does: wait for the refusal, not a fixed time.
    const newConnection = () =>
      fetch(`${server.url}/ip/v1/status`).then(
        () => 'accepted',
        () => 'refused',
      );
    await expect.poll(newConnection, { timeout: 2000, interval: 25 }).toBe('refused');
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

const temporaryFile = (name: string, text: string) => {
  const file = join(mkdtempSync(join(tmpdir(), 'server-start-')), name);
  writeFileSync(file, text);
  return file;
};

// docs/configuration.md#start-up-failures. Each start fails before it serves: seconds at most,
// the Redis one after the 5 s it waits for Redis to answer.
describe('a start that cannot succeed: exit 1, one line on stderr naming the cause, no stack', () => {
  const env = (more: Record<string, string>) => ({
    DNS_SERVERS: dns.address,
    STORE_URL: 'memory:',
    ...more,
  });

  it('says the port is in use and to set PORT', { timeout: 60_000 }, async () => {
    const taken = await takenPort();
    try {
      const failure = await failedStart(env({ PORT: String(taken.port) }));
      expect(expectOneLineFailure(failure)).toBe(
        `port ${taken.port} is in use on 127.0.0.1: stop the other process or set PORT`,
      );
    } finally {
      await taken.release();
    }
  });

  it.each<[string, () => Promise<Record<string, string>> | Record<string, string>, RegExp]>([
    [
      'a HOST that is not an address of this machine',
      () => ({ HOST: '192.0.2.1' }),
      /^HOST 192\.0\.2\.1 is not an address of this machine: set HOST /,
    ],
    [
      'bad variables, every one named with what it must be',
      () => ({ PORT: 'eighty', DAILY_LIMIT: '0' }),
      /^invalid configuration: .*PORT: an integer from 0 to 65535/,
    ],
    [
      'SMTP_URL without PUBLIC_URL, which its e-mails take their links from',
      () => ({ SMTP_URL: 'smtp://127.0.0.1:2525', ALERT_FROM: 'alerts@example.org' }),
      /^invalid configuration: PUBLIC_URL: required with SMTP_URL: e-mail links are built from it, never from a request's Host$/,
    ],
    [
      'a share per client above MAX_CONNECTIONS',
      () => ({ MAX_CONNECTIONS: '16' }),
      /^invalid configuration: MAX_CONNECTIONS_PER_CLIENT: at most MAX_CONNECTIONS \(16\)$/,
    ],
    [
      'a store in a folder no user may write',
      () => ({ STORE_URL: 'sqlite:/proc/reputation.db' }),
      /^STORE_URL: cannot open or write the SQLite file \/proc\/reputation\.db: .*set STORE_URL /,
    ],
    [
      'a store whose folder is a file',
      () => ({ STORE_URL: `sqlite:${join(temporaryFile('file', 'x'), 'reputation.db')}` }),
      /^STORE_URL: cannot create the folder of .*: set STORE_URL to sqlite:PATH in a folder /,
    ],
    [
      'a store that is not a SQLite database',
      () => ({ STORE_URL: `sqlite:${temporaryFile('text.db', 'not SQLite at all '.repeat(40))}` }),
      /^STORE_URL: .*text\.db is not a SQLite database: set STORE_URL to another file/,
    ],
    [
      'a Redis that does not answer',
      async () => ({ STORE_URL: `redis://127.0.0.1:${await freePort()}/0` }),
      /^STORE_URL: cannot reach Redis at 127\.0\.0\.1:\d+\/0: .*: start Redis there, or set STORE_URL/,
    ],
    [
      'a DNSBL_ZONES_FILE that cannot be read',
      () => ({ DNSBL_ZONES_FILE: '/nonexistent/zones.json' }),
      /^DNSBL_ZONES_FILE: \/nonexistent\/zones\.json cannot be read \(ENOENT.*\): .*unset DNSBL_ZONES_FILE/,
    ],
    [
      'a DNSBL_ZONES_FILE with a bad entry, naming the entry',
      () => ({
        DNSBL_ZONES_FILE: temporaryFile(
          'zones.json',
          JSON.stringify([{ zone: 'Not A Zone', type: 'ip', name: 'x', severity: 'major' }]),
        ),
      }),
      /^DNSBL_ZONES_FILE: .*zones\.json is not a zone list \(invalid zone list at 0\.zone: /,
    ],
  ])('says so for %s', { timeout: 60_000 }, async (_, more, line) => {
    const failure = await failedStart(env(await more()));
    expect(expectOneLineFailure(failure)).toMatch(line);
  });
});

/** A raw TCP client: what it wrote, what came back, and when the server closed the connection. */
interface RawConnection {
  socket: Socket;
  received(): string;
  /** Milliseconds from connecting until the server closed the connection. */
  closed: Promise<number>;
  /** Milliseconds from connecting until the first bytes came back. */
  firstAnswerMs(): number | undefined;
}

/** `localAddress`: another address of this machine (127/8 is all loopback), another client. */
async function rawConnection(url: string, localAddress?: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect({ port: Number(port), host: hostname, localAddress });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const started = performance.now();
  let text = '';
  let firstAnswerMs: number | undefined;
  socket.on('data', (chunk: Buffer) => {
    firstAnswerMs ??= performance.now() - started;
    text += chunk.toString();
  });
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => resolve(performance.now() - started)),
  );
  return { socket, received: () => text, closed, firstAnswerMs: () => firstAnswerMs };
}

const slowBodyHead = (url: string) =>
  `POST ${new URL(url).pathname}/ip/v1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 64\r\n\r\n{"target":`;

describe('src/server.ts connection hygiene', () => {
  const limits = {
    HEADERS_TIMEOUT_MS: '600',
    REQUEST_TIMEOUT_MS: '1200',
    KEEP_ALIVE_TIMEOUT_MS: '400',
    MAX_CONNECTIONS: '3',
    MAX_CONNECTIONS_PER_CLIENT: '3',
  };
  // One server for these tests: a server process takes seconds to start on a busy machine.
  let server: Running;
  beforeAll(async () => {
    server = await startServer(limits);
    hygieneServers.push(server.child);
  }, 60_000);
  afterAll(() => {
    server.child.kill('SIGKILL');
  });

  it('cuts a connection trickling its body at REQUEST_TIMEOUT_MS with a 408, and logs it at info', async () => {
    const slow = await rawConnection(server.url);
    slow.socket.write(slowBodyHead(server.url));
    // A byte every 100 ms keeps any idle timer quiet: only the whole request's deadline cuts it.
    const trickle = setInterval(() => slow.socket.write(' '), 100);
    const closedAfter = await slow.closed;
    clearInterval(trickle);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
    // Node checks the deadline every 300 ms here (a quarter of the shorter timeout).
    expect(closedAfter).toBeGreaterThan(1100);
    expect(closedAfter).toBeLessThan(2500);
    // The request's one line says no one was left to answer it (499), at info.
    await expect
      .poll(() => server.stdout.map((line) => JSON.parse(line) as Record<string, unknown>))
      .toContainEqual(expect.objectContaining({ level: 'info', msg: 'request', status: 499 }));
    const entries = server.stdout.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });

  it('logs a client that hangs up in the middle of its body at info, not error', async () => {
    const before = server.stdout.length;
    const leaving = await rawConnection(server.url);
    leaving.socket.write(slowBodyHead(server.url));
    await new Promise((resolve) => setTimeout(resolve, 150));
    leaving.socket.destroy();
    await expect
      .poll(() =>
        server.stdout.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>),
      )
      .toContainEqual(expect.objectContaining({ level: 'info', msg: 'request', status: 499 }));
    const entries = server.stdout
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });

  it('cuts a connection that never finishes its headers at HEADERS_TIMEOUT_MS', async () => {
    const slow = await rawConnection(server.url);
    slow.socket.write('GET /tools/ip-reputation/ip/v1/status HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => slow.socket.write('X-A: b\r\n'), 100);
    const closedAfter = await slow.closed;
    clearInterval(trickle);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfter).toBeGreaterThan(500);
    expect(closedAfter).toBeLessThan(1200);
  });

  it('closes an idle kept-alive connection after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const idle = await rawConnection(server.url);
    idle.socket.write('GET /tools/ip-reputation/ip/v1/status HTTP/1.1\r\nHost: x\r\n\r\n');
    const closedAfter = await idle.closed;
    expect(idle.received()).toMatch(/^HTTP\/1\.1 200 /);
    // Idle from the answer on: closed at the 400 ms keep-alive timeout, not Node's 5 s default.
    const idleMs = closedAfter - (idle.firstAnswerMs() ?? 0);
    expect(idleMs).toBeGreaterThan(350);
    expect(idleMs).toBeLessThan(2000);
  });

  it('refuses a connection past MAX_CONNECTIONS with a 503 busy, and accepts again once one closes', async () => {
    const held = await Promise.all([1, 2, 3].map(() => rawConnection(server.url)));
    // Another client: 127.0.0.1's next one would be past its share, closed without an answer.
    const refused = await rawConnection(server.url, '127.0.0.2');
    refused.socket.write(
      'GET /tools/ip-reputation/ip/v1/status HTTP/1.1\r\nHost: x\r\nX-Request-Id: trace-42\r\n\r\n',
    );
    expect(await refused.closed).toBeLessThan(1100);
    const [head = '', body = ''] = refused.received().split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(head).toMatch(/\r\nRetry-After: 1\r\n/);
    // The CORS headers every answer of the app carries, so a page's script can read it.
    expect(head).toMatch(/\r\nAccess-Control-Allow-Origin: \*\r\n/);
    expect(head).toMatch(/\r\nAccess-Control-Expose-Headers: Retry-After, X-Request-Id\r\n/);
    // Its request id, as every answer has: the caller's own.
    expect(head).toMatch(/\r\nX-Request-Id: trace-42\r\n/);
    expect(JSON.parse(body)).toMatchObject({ status: 'error', code: 'busy' });
    // The held connections are still served.
    held[0]!.socket.write('GET /tools/ip-reputation/ip/v1/status HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => held[0]!.received()).toMatch(/^HTTP\/1\.1 200 /);
    held[1]!.socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await fetch(`${server.url}/ip/v1/status`)).status).toBe(200);
    for (const connection of held) connection.socket.destroy();
    const entries = server.stdout.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toContainEqual(
      expect.objectContaining({ level: 'info', msg: 'connections refused', max: 3 }),
    );
  });
});

describe('src/server.ts connections per client', () => {
  // MAX_CONNECTIONS and MAX_CONNECTIONS_PER_CLIENT at their defaults (512 and 32): the hog's 520
  // connections would take every one of the 512 without the share. The timeouts are long enough
  // that no held connection is cut while the test runs on a busy machine.
  const limits = { HEADERS_TIMEOUT_MS: '60000', REQUEST_TIMEOUT_MS: '60000' };
  const hogCount = 520;
  const share = 32;
  let server: Running;
  const hog: RawConnection[] = [];
  beforeAll(async () => {
    server = await startServer(limits);
    hygieneServers.push(server.child);
  }, 60_000);
  afterAll(() => {
    for (const connection of hog) connection.socket.destroy();
    server.child.kill('SIGKILL');
  });

  it("closes a client's connections past MAX_CONNECTIONS_PER_CLIENT at once while another client is served", async () => {
    const { pathname } = new URL(server.url);
    let closedByServer = 0;
    // In batches, each under the listen backlog (511), so the kernel drops no handshake.
    for (let opened = 0; opened < hogCount; opened += 65) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(65, hogCount - opened) }, () =>
          rawConnection(server.url, '127.0.0.1'),
        ),
      );
      for (const connection of batch) {
        hog.push(connection);
        void connection.closed.then(() => closedByServer++);
        // One header line, never the blank line that ends the head: a connection held open.
        connection.socket.write(`GET ${pathname}/ip/v1/status HTTP/1.1\r\n`);
      }
    }
    await expect.poll(() => closedByServer, { timeout: 10_000 }).toBe(hogCount - share);
    // Closed without a byte: no 503, no parser.
    for (const connection of hog) expect(connection.received()).toBe('');

    // Another client gets its answers while the hog holds its share.
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() =>
        rawRequest(`${server.url}/ip/v1/status`, { localAddress: '127.0.0.2' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    // The hog's share is still open, and its next connection is closed too.
    expect(closedByServer).toBe(hogCount - share);
    const more = await rawConnection(server.url, '127.0.0.1');
    more.socket.on('error', () => {});
    await more.closed;
    expect(more.received()).toBe('');

    // Counted by reason, with no address in a label.
    const metrics = await rawRequest(`${new URL(server.url).origin}/metrics`, {
      localAddress: '127.0.0.2',
    });
    expect(metrics.status).toBe(200);
    const exposition = parsePrometheusText(metrics.body.toString());
    expect(
      sampleValue(exposition, 'reputation_connections_refused_total', { reason: 'per_client' }),
    ).toBe(hogCount - share + 1);
    expect(
      sampleValue(exposition, 'reputation_connections_refused_total', { reason: 'busy' }),
    ).toBe(0);
    const entries = server.stdout.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toContainEqual(
      expect.objectContaining({ level: 'info', msg: 'connections refused', maxPerClient: share }),
    );
  }, 60_000);
});
