import { afterEach, describe, expect, it } from 'vitest';
import { startWarnings } from '../../src/config/index.js';
import { killServerProcesses, startServerProcess } from '../support/server-process.js';

/**
 * The start's warning when e-mail alerts are on and PUBLIC_URL is not https (docs/watches.md,
 * "E-mail": RFC 8058 §3.1 wants the one-click unsubscribe link https): one line, at `warn` with
 * the other lines the operator should act on, and the service starts all the same.
 */

afterEach(killServerProcesses);

const email = {
  SMTP_URL: 'smtp://127.0.0.1:9',
  ALERT_FROM: 'Reputation <alerts@rep.example.org>',
  STORE_URL: 'memory:',
  // Nothing answers there: the start needs no outside DNS for this.
  DNS_SERVERS: '127.0.0.1:9',
};

const warns = (lines: Array<Record<string, unknown>>) =>
  lines.filter((line) => String(line.msg).includes('PUBLIC_URL is not https'));

describe('the start', { timeout: 60_000 }, () => {
  it('warns once, at warn, that unsubscribe links are not https when PUBLIC_URL is http, and serves', async () => {
    const server = await startServerProcess({ ...email, PUBLIC_URL: 'http://rep.example.org' });
    expect(warns(server.lines)).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: expect.stringContaining('RFC 8058'),
        public_url: 'http://rep.example.org',
      }),
    ]);
    expect((await fetch(`${server.url}/ip/v1/status`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
  });

  it('says nothing of it with an https PUBLIC_URL', async () => {
    const server = await startServerProcess({ ...email, PUBLIC_URL: 'https://rep.example.org' });
    expect(warns(server.lines)).toEqual([]);
    expect((await fetch(`${server.url}/ip/v1/status`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
  });
});

describe('startWarnings', () => {
  const base = { publicUrl: undefined, watch: { smtpUrl: undefined } } as const;
  it.each([
    ['no e-mail', 0, { ...base, publicUrl: 'http://rep.example.org' }],
    // Not a configuration readConfig lets start (SMTP_URL needs PUBLIC_URL), still a warning.
    ['e-mail without PUBLIC_URL', 1, { ...base, watch: { smtpUrl: 'smtp://relay' } }],
    [
      'e-mail under http',
      1,
      { publicUrl: 'http://rep.example.org', watch: { smtpUrl: 'smtp://relay' } },
    ],
    [
      'e-mail under https',
      0,
      { publicUrl: 'https://rep.example.org', watch: { smtpUrl: 'smtp://relay' } },
    ],
  ])('gives %s %i warning(s)', (_what, count, config) => {
    expect(startWarnings(config as Parameters<typeof startWarnings>[0])).toHaveLength(count);
  });
});
