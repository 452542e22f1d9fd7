import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * scripts/pretest.ts as `npm test` runs it, on this machine, with a PATH of its own that never
 * holds apt-get: its installing is not run here (it would change the machine);
 * test/scripts/test-prerequisites.test.ts covers that decision.
 */

const script = fileURLToPath(new URL('../../scripts/pretest.ts', import.meta.url));
const tsxLoader = import.meta.resolve('tsx');
/** The redis-server the suites use (the pretest of this very run made sure of it). */
const redisServer = execFileSync('sh', ['-c', 'command -v redis-server'], {
  encoding: 'utf8',
}).trim();

/** A PATH of one folder holding redis-server, or nothing. */
function pathHolding(withRedisServer: boolean): string {
  const folder = mkdtempSync(join(tmpdir(), 'pretest-path-'));
  if (withRedisServer) symlinkSync(redisServer, join(folder, 'redis-server'));
  return folder;
}

async function pretest(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', tsxLoader, script], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}

describe('scripts/pretest.ts', () => {
  it('does nothing and prints nothing where redis-server, Chromium, PostgreSQL and Dovecot are installed', async () => {
    expect(await pretest({ PATH: pathHolding(true) })).toEqual({ code: 0, output: '' });
  });

  it('stops with one line naming the command when redis-server is missing and apt-get too', async () => {
    const { code, output } = await pretest({ PATH: pathHolding(false) });
    expect(code).toBe(1);
    expect(output).toMatch(
      /^npm test needs redis-server\b.*: run {2}(sudo )?apt-get install -y --no-install-recommends redis-server\b[^\n]*\n$/,
    );
  });

  it('takes the redis-server REDIS_SERVER_BIN names, as the Redis suites start that one', async () => {
    expect(await pretest({ PATH: pathHolding(false), REDIS_SERVER_BIN: redisServer })).toEqual({
      code: 0,
      output: '',
    });
  });

  it('stops with one line naming postgresql when the folder POSTGRES_BIN_DIR names lacks its server', async () => {
    const { code, output } = await pretest({
      PATH: pathHolding(true),
      POSTGRES_BIN_DIR: mkdtempSync(join(tmpdir(), 'no-postgres-')),
    });
    expect(code).toBe(1);
    expect(output).toMatch(
      /^npm test needs postgresql\b.*: run {2}(sudo )?apt-get install -y --no-install-recommends postgresql\b[^\n]*\n$/,
    );
  });

  it('stops with one line naming dovecot-imapd when DOVECOT_BIN names no program', async () => {
    const { code, output } = await pretest({
      PATH: pathHolding(true),
      DOVECOT_BIN: join(mkdtempSync(join(tmpdir(), 'no-dovecot-')), 'dovecot'),
    });
    expect(code).toBe(1);
    expect(output).toMatch(
      /^npm test needs dovecot-imapd\b.*: run {2}(sudo )?apt-get install -y --no-install-recommends dovecot-imapd\b[^\n]*\n$/,
    );
  });
});
