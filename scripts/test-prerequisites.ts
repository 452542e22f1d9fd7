/**
 * What `npm test` needs from the machine besides node_modules, and what to do when it is missing
 * (scripts/pretest.ts does it). Four of Debian's packages: `redis-server`, which the Redis suites
 * start (fixtures/redis-server.ts), `chromium` at /usr/bin/chromium, which the browser suites
 * drive through playwright-core (test/support/browser.ts), never a browser playwright downloads,
 * `postgresql`, whose server the PostgreSQL report store's suites start in a throwaway cluster
 * (fixtures/postgres-server.ts), and `dovecot-imapd`, the IMAP server the reports' IMAP door is
 * tested against (fixtures/dovecot-server.ts). The decision is a pure function of what was found,
 * so it is tested with a table.
 */

/** Debian's Chromium, where test/support/browser.ts launches it. */
export const chromiumPath = '/usr/bin/chromium';

/** The Debian packages, in the order they are named. */
export type TestPackage = 'redis-server' | 'chromium' | 'postgresql' | 'dovecot-imapd';

/** What scripts/pretest.ts found on the machine. */
export interface Machine {
  /** The packages whose program is missing. */
  missing: TestPackage[];
  /** Running as root: apt-get may install. */
  root: boolean;
  /** apt-get is on PATH: a Debian-like system. */
  aptGet: boolean;
}

export type Plan =
  | { action: 'nothing' }
  /** Run these commands in turn, non-interactive (DEBIAN_FRONTEND=noninteractive). */
  | { action: 'install'; commands: string[][] }
  /** Exit 1 after printing this one line. */
  | { action: 'stop'; line: string };

/** `a`, `a and b`, `a, b and c`. */
export function listed(names: readonly string[]): string {
  return names.length < 2
    ? names.join('')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * The install command: quiet, and without Recommends, which for chromium are the sandbox helper
 * and more the headless tests do not use (redis-server recommends nothing; postgresql's are
 * contrib tools and a system-wide cluster's helpers the tests do not use; dovecot-imapd's, none
 * the tests need).
 */
function installCommand(missing: TestPackage[]): string[] {
  return ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing];
}

export function planPrerequisites({ missing, root, aptGet }: Machine): Plan {
  if (missing.length === 0) return { action: 'nothing' };
  if (root && aptGet) {
    return { action: 'install', commands: [['apt-get', 'update', '-qq'], installCommand(missing)] };
  }
  const command = `${root ? '' : 'sudo '}${installCommand(missing)
    .filter((word) => word !== '-qq')
    .join(' ')}`;
  const needs = `npm test needs ${listed(missing)}`;
  return {
    action: 'stop',
    line: aptGet
      ? `${needs}: run  ${command}`
      : `${needs} (Debian's packages; chromium at ${chromiumPath}): run  ${command}  or your system's equivalent`,
  };
}
