import { describe, expect, it } from 'vitest';
import { type Machine, planPrerequisites } from '../../scripts/test-prerequisites.js';

/** What `npm test`'s pretest does on each kind of machine (scripts/pretest.ts acts on it). */

const update = ['apt-get', 'update', '-qq'];
const install = (...packages: string[]) => [
  'apt-get',
  'install',
  '-y',
  '-qq',
  '--no-install-recommends',
  ...packages,
];

describe('planPrerequisites', () => {
  it.each<[string, Machine]>([
    ['as root with apt-get', { missing: [], root: true, aptGet: true }],
    ['as a user without apt-get', { missing: [], root: false, aptGet: false }],
  ])('does nothing when all are there, %s', (_, machine) => {
    expect(planPrerequisites(machine)).toEqual({ action: 'nothing' });
  });

  it.each<[string, Machine, string[][]]>([
    [
      'both',
      { missing: ['redis-server', 'chromium'], root: true, aptGet: true },
      [update, install('redis-server', 'chromium')],
    ],
    [
      'redis-server',
      { missing: ['redis-server'], root: true, aptGet: true },
      [update, install('redis-server')],
    ],
    [
      'chromium',
      { missing: ['chromium'], root: true, aptGet: true },
      [update, install('chromium')],
    ],
    [
      'postgresql',
      { missing: ['postgresql'], root: true, aptGet: true },
      [update, install('postgresql')],
    ],
    [
      'all three',
      { missing: ['redis-server', 'chromium', 'postgresql'], root: true, aptGet: true },
      [update, install('redis-server', 'chromium', 'postgresql')],
    ],
    [
      'dovecot-imapd',
      { missing: ['dovecot-imapd'], root: true, aptGet: true },
      [update, install('dovecot-imapd')],
    ],
    [
      'all four',
      {
        missing: ['redis-server', 'chromium', 'postgresql', 'dovecot-imapd'],
        root: true,
        aptGet: true,
      },
      [update, install('redis-server', 'chromium', 'postgresql', 'dovecot-imapd')],
    ],
  ])(
    'as root with apt-get, updates the lists then installs only what is missing: %s',
    (_, machine, commands) => {
      expect(planPrerequisites(machine)).toEqual({ action: 'install', commands });
    },
  );

  it.each<[string, Machine, string]>([
    [
      'a user on Debian is told the sudo command',
      { missing: ['redis-server', 'chromium'], root: false, aptGet: true },
      'npm test needs redis-server and chromium: run  sudo apt-get install -y --no-install-recommends redis-server chromium',
    ],
    [
      'a user on Debian missing all three is told them in one list',
      { missing: ['redis-server', 'chromium', 'postgresql'], root: false, aptGet: true },
      'npm test needs redis-server, chromium and postgresql: run  sudo apt-get install -y --no-install-recommends redis-server chromium postgresql',
    ],
    [
      'a user on Debian missing one is told only that one',
      { missing: ['chromium'], root: false, aptGet: true },
      'npm test needs chromium: run  sudo apt-get install -y --no-install-recommends chromium',
    ],
    [
      'root without apt-get is told the Debian command and where Chromium must be',
      { missing: ['redis-server'], root: true, aptGet: false },
      "npm test needs redis-server (Debian's packages; chromium at /usr/bin/chromium): run  apt-get install -y --no-install-recommends redis-server  or your system's equivalent",
    ],
    [
      'a user without apt-get is told the same with sudo',
      { missing: ['chromium'], root: false, aptGet: false },
      "npm test needs chromium (Debian's packages; chromium at /usr/bin/chromium): run  sudo apt-get install -y --no-install-recommends chromium  or your system's equivalent",
    ],
  ])('stops with one line when it may not install: %s', (_, machine, line) => {
    expect(planPrerequisites(machine)).toEqual({ action: 'stop', line });
  });
});
