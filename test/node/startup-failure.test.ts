import { describe, expect, it } from 'vitest';
import {
  isStartupFailureMessage,
  listenFailureLine,
  startupFailureLine,
} from '../../src/node/startup-failure.js';

/**
 * The one line a failed start prints. The processes that print it are spawned in
 * test/server.test.ts and test/node/cluster.test.ts; here every cause, including those a test cannot
 * bring about on any machine (a privileged port when the tests run as root).
 */

/** An error as node:net reports a failed listen. */
function listenError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`listen ${code}: something 0.0.0.0:80`), {
    code,
    syscall: 'listen',
  });
}

const address = { port: 80, host: '0.0.0.0' };

describe('listenFailureLine', () => {
  it.each([
    ['EADDRINUSE', 'port 80 is in use on 0.0.0.0: stop the other process or set PORT'],
    ['EACCES', /^port 80 may not be bound by this user: set PORT to 1024 or above/],
    ['EADDRNOTAVAIL', /^HOST 0\.0\.0\.0 is not an address of this machine: set HOST/],
    ['EAFNOSUPPORT', /^HOST 0\.0\.0\.0 is of an address family .*: set HOST to 0\.0\.0\.0$/],
    ['ENOTFOUND', /^HOST 0\.0\.0\.0 does not resolve to an address: set HOST/],
    ['EAI_AGAIN', /^HOST 0\.0\.0\.0 does not resolve to an address: set HOST/],
    ['EMFILE', /^cannot listen on 0\.0\.0\.0 port 80: listen EMFILE: .*: check HOST and PORT$/],
  ])('names the cause of %s and the variable to change', (code, line) => {
    expect(listenFailureLine(listenError(code), address)).toMatch(line);
  });

  it("names the reports' SMTP listener's variables for its port and address", () => {
    const smtp = {
      port: 25,
      host: '192.0.2.1',
      variables: { port: 'REPORTS_SMTP_PORT', host: 'REPORTS_SMTP_HOST' },
    };
    expect(listenFailureLine(listenError('EACCES'), smtp)).toMatch(
      /^port 25 may not be bound by this user: set REPORTS_SMTP_PORT to 1024 or above, or give node the CAP_NET_BIND_SERVICE capability$/,
    );
    expect(listenFailureLine(listenError('EADDRNOTAVAIL'), smtp)).toMatch(
      /^REPORTS_SMTP_HOST 192\.0\.2\.1 is not an address of this machine: set REPORTS_SMTP_HOST/,
    );
  });
});

describe('startupFailureLine', () => {
  it('is the message of an error that already says its cause and fix', () => {
    const error = new Error('STORE_URL: cannot reach Redis at 127.0.0.1:9/0: refused: start Redis');
    expect(startupFailureLine(error)).toBe(error.message);
  });

  it('puts a message of several lines on one', () => {
    expect(startupFailureLine(new Error('first\n  second\nthird\n'))).toBe('first; second; third');
  });

  it('says what was thrown when it is not an Error', () => {
    expect(startupFailureLine('no store')).toBe('no store');
  });
});

describe('isStartupFailureMessage', () => {
  it.each([
    [{ startupFailure: 'port 8787 is in use' }, true],
    [{ startupFailure: 42 }, false],
    [{ cmd: 'NODE_CLUSTER' }, false],
    ['startupFailure', false],
    [null, false],
  ])('tells a worker failure %j apart from the cluster messages: %s', (message, expected) => {
    expect(isStartupFailureMessage(message)).toBe(expected);
  });
});
