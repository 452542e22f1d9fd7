import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { dovecotBinary } from '../fixtures/dovecot-server.js';
import { postgresBinDir } from '../fixtures/postgres-server.js';
import {
  type Machine,
  type TestPackage,
  chromiumPath,
  listed,
  planPrerequisites,
} from './test-prerequisites.js';

/**
 * `npm test`'s pretest step: when redis-server, Debian's Chromium or PostgreSQL is missing,
 * installs them with apt-get as root, or else stops with one line naming the command to run. When
 * all are there it does nothing and prints nothing. What it decides: scripts/test-prerequisites.ts.
 */

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A program by path, or by name on PATH, as spawn() would find it. */
function found(program: string): boolean {
  if (program.includes('/')) return isExecutable(program);
  const directories = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return directories.some((directory) => isExecutable(join(directory, program)));
}

/** The server and initdb where the PostgreSQL suites look (POSTGRES_BIN_DIR or Debian's folder). */
function hasPostgres(): boolean {
  try {
    const bin = postgresBinDir();
    return isExecutable(join(bin, 'postgres')) && isExecutable(join(bin, 'initdb'));
  } catch {
    return false;
  }
}

function look(): Machine {
  // The Redis suites start REDIS_SERVER_BIN when it is set (fixtures/redis-server.ts).
  const redisServer = process.env.REDIS_SERVER_BIN ?? 'redis-server';
  const missing: TestPackage[] = [];
  if (!found(redisServer)) missing.push('redis-server');
  if (!isExecutable(chromiumPath)) missing.push('chromium');
  if (!hasPostgres()) missing.push('postgresql');
  // The IMAP door's suites start DOVECOT_BIN when it is set (fixtures/dovecot-server.ts).
  if (!isExecutable(dovecotBinary)) missing.push('dovecot-imapd');
  return { missing, root: process.getuid?.() === 0, aptGet: found('apt-get') };
}

const machine = look();
const plan = planPrerequisites(machine);
if (plan.action === 'stop') {
  console.error(plan.line);
  process.exit(1);
}
if (plan.action === 'install') {
  console.error(`npm test: installing ${listed(machine.missing)} with apt-get`);
  for (const [command = '', ...args] of plan.commands) {
    // Quiet: apt-get's and dpkg's output is shown only when the command fails.
    const run = spawnSync(command, args, {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.status !== 0) {
      process.stderr.write(`${run.stdout ?? ''}${run.stderr ?? ''}`);
      const why = run.error ? `: ${run.error.message}` : '';
      console.error(`npm test: ${[command, ...args].join(' ')} failed${why}`);
      process.exit(1);
    }
  }
  const still = look().missing;
  if (still.length > 0) {
    console.error(`npm test: ${listed(still)} still missing after apt-get install`);
    process.exit(1);
  }
}
