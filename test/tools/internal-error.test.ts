import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../src/app.js';
import { readConfig } from '../../src/node/config.js';
import { createNodeServices } from '../../src/node/services.js';
import type { Store } from '../../src/store/store.js';
import { expectError } from '../support/service.js';

/** The one error a caller should never see, and what it says when it happens anyway. */

describe('500 internal', () => {
  it('answers an unexpected failure as internal, with no message, stack or internals', async () => {
    const config = readConfig({
      DNS_SERVERS: '127.0.0.1:9',
      DNS_TIMEOUT_MS: '100',
      DNS_RETRIES: '0',
      STORE_URL: 'memory:',
    });
    const services = await createNodeServices(config, () => {});
    services.stopMonitor();
    onTestFinished(() => services.close());
    const logs: string[] = [];
    const failingStore: Store = {
      ...services.store,
      count: () => Promise.reject(new Error('store exploded at /var/lib/secret-path')),
    };
    const app = createApp({
      ...services,
      config,
      store: failingStore,
      clock: () => new Date(),
      log: (level, message, fields) => logs.push(JSON.stringify({ level, message, ...fields })),
      peerAddress: () => '192.0.2.1',
    });
    // A status read counts only under a caller-id key the store holds: one is made first.
    await services.callerIds.idOf('192.0.2.1');
    const response = await app.request('/tools/ip-reputation/ip/v1/status');
    await expectError(response, 500, {
      status: 'error',
      code: 'internal',
      error: 'internal error',
    });
    // The operator learns what happened, on a line the answer's request id finds; the caller
    // does not.
    const requestId = response.headers.get('x-request-id');
    const entries = logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.filter((entry) => entry.requestId === requestId)).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'unexpected error',
        route: '/tools/ip-reputation/ip/v1/status',
        error: expect.stringContaining('store exploded'),
      }),
      expect.objectContaining({ level: 'info', message: 'request', status: 500, code: 'internal' }),
    ]);
  });
});
