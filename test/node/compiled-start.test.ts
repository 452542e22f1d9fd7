import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { type FixtureDnsServer, startFixtureDnsServer } from '../../fixtures/dns-server.js';
import { dnsblWorld } from '../../fixtures/dnsbl-world.js';
import { killServerProcesses, postJson, startServerProcess } from '../support/server-process.js';
import { startFlags } from '../../bench/service.js';

/**
 * `npm start` on a fresh checkout (docs/operations.md, "Production start"): the files a clone
 * holds, copied to a folder of their own with the installed packages beside them, built by the
 * step `npm ci` runs as `prepare` (scripts/build.mjs), then started as `npm start` starts it, by
 * plain Node on dist/server.js without tsx. Everything the server reads at run time (the zone
 * list, the page assets, the fonts, the card thread's module) must resolve from dist/.
 */

const repository = fileURLToPath(new URL('../..', import.meta.url));
let checkout: string;
let dns: FixtureDnsServer;

/** `node scripts/build.mjs [...args]` in the checkout, as npm runs it. */
function build(...args: string[]) {
  const run = spawnSync(process.execPath, ['scripts/build.mjs', ...args], {
    cwd: checkout,
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
}

const stampTime = () => statSync(join(checkout, 'dist/.built')).mtimeMs;

beforeAll(async () => {
  dns = await startFixtureDnsServer({ zones: dnsblWorld(await loadZoneList(), {}) });
  checkout = mkdtempSync(join(tmpdir(), 'compiled-start-'));
  for (const entry of ['src', 'assets', 'scripts', 'package.json', 'tsconfig.json']) {
    cpSync(join(repository, entry), join(checkout, entry), { recursive: true });
  }
  cpSync(join(repository, 'tsconfig.build.json'), join(checkout, 'tsconfig.build.json'));
  symlinkSync(join(repository, 'node_modules'), join(checkout, 'node_modules'), 'dir');
  build();
}, 120_000);
afterAll(async () => {
  await dns.close();
  rmSync(checkout, { recursive: true, force: true });
});
afterEach(killServerProcesses);

describe('the compiled start', () => {
  it('is what npm start runs, plain Node on dist/, and npm run dev keeps tsx', () => {
    const { scripts } = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.start).toBe('node --max-semi-space-size=32 --no-memory-reducer dist/server.js');
    expect(scripts.prepare).toBe('node scripts/build.mjs');
    expect(scripts.prestart).toBe('node scripts/build.mjs --if-stale');
    expect(scripts.dev).toBe('tsx src/server.ts');
  });

  it(
    "serves checks, pages with their assets and PNG cards from dist/ alone, with npm start's node flags",
    { timeout: 60_000 },
    async () => {
      // A flag this Node does not know would make npm start exit at once ("bad option").
      const nodeFlags = startFlags(join(checkout, 'package.json'));
      const server = await startServerProcess(
        { DNS_SERVERS: dns.address, STORE_URL: 'memory:' },
        { cwd: checkout, compiled: join(checkout, 'dist/server.js'), nodeFlags },
      );
      const root = new URL(server.url).origin;
      expect((await fetch(`${root}/healthz`)).status).toBe(200);
      expect((await fetch(`${root}/readyz`)).status).toBe(200);

      const check = await postJson(`${server.url}/ip/v1`, { target: '8.8.4.4' });
      expect(check.status).toBe(200);
      const { token } = (await check.json()) as { token: string };

      const page = await fetch(`${server.url}/ip/v1/share/${token}`);
      expect(page.status).toBe(200);
      const stylesheet = /href="[^"]*(\/assets\/[^"]+\.css)"/.exec(await page.text());
      expect(stylesheet).not.toBeNull();
      const css = await fetch(`${server.url}${stylesheet![1]}`);
      expect(css.status).toBe(200);
      expect(css.headers.get('content-type')).toMatch(/^text\/css/);

      const card = await fetch(`${server.url}/ip/v1/share/${token}/card`);
      expect(card.status).toBe(200);
      expect(card.headers.get('content-type')).toBe('image/png');
      expect((await card.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      expect(await server.stop()).toBe(0);
    },
  );

  // A tsc build of src/: seconds of CPU, past 20 s on a machine busy with the rest of the suite.
  it(
    'is rebuilt by npm start once a source file is newer than dist/, and not before',
    { timeout: 60_000 },
    () => {
      const built = stampTime();
      build('--if-stale');
      expect(stampTime()).toBe(built);

      const later = new Date(built + 5_000);
      utimesSync(join(checkout, 'src/app.ts'), later, later);
      build('--if-stale');
      expect(stampTime()).toBeGreaterThan(built);
    },
  );
});
