import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicWatch, UpdatedWatch } from '../../support/responses.js';
import {
  expectError,
  postError,
  type TestService,
  startTestService,
} from '../../support/service.js';
import { createWatch, send } from './support.js';

/**
 * `confirmations` and a host name's pinned address over real HTTP (docs/watches.md, "Confirmed
 * changes", "Host names"): the request schemas' rule, its default, PATCH, and the views.
 */

const cleanIp = '8.8.100.9';
const host = 'mail.pinned-watch.net';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    zones: [{ origin: host, records: { [host]: { A: ['8.8.100.13', cleanIp] } } }],
    env: { WATCH_MIN_INTERVAL_S: '60', WATCH_INTERVAL_S: '3600', WATCH_PER_CALLER: '50' },
  });
});
afterAll(() => service.close());

describe('confirmations', () => {
  it.each([0, 6, 2.5, '2', null])('refuses %j on POST with 400 invalid_request', async (value) => {
    const response = await service.post('/watch/v1', { target: cleanIp, confirmations: value });
    await expectError(response, 400, postError('invalid_request'));
  });

  it('reads 2 when absent, takes 1 to 5, and a PATCH changes it or is refused', async () => {
    const watch = await createWatch(service, { target: cleanIp });
    expect(watch.confirmations).toBe(2);
    const five = await createWatch(service, { target: cleanIp, confirmations: 5 });
    expect(five.confirmations).toBe(5);

    const path = `/watch/v1/${watch.id}`;
    const refused = await send(service, 'PATCH', path, {
      body: { confirmations: 7 },
      key: watch.manage_key,
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'invalid_request' });
    const patched = await send(service, 'PATCH', path, {
      body: { confirmations: 1 },
      key: watch.manage_key,
    });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as UpdatedWatch).confirmations).toBe(1);
    const view = (await (await service.get(path)).json()) as PublicWatch;
    expect(view.confirmations).toBe(1);
  });
});

describe('a host name watch', () => {
  it('shows the address it re-checks: the one its first check checked', async () => {
    const watch = await createWatch(service, { target: host });
    expect(watch).toMatchObject({ target: host, addresses: [cleanIp] });
    const view = (await (await service.get(`/watch/v1/${watch.id}`)).json()) as PublicWatch;
    expect(view.addresses).toEqual([cleanIp]);
    const address = await createWatch(service, { target: cleanIp });
    expect(address.addresses).toBeUndefined();
  });
});
