import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeWebhookSender } from '../../src/node/webhook-sender.js';
import { freePort } from '../../fixtures/free-port.js';
import { type WebhookReceiver, startWebhookReceiver } from '../../fixtures/webhook-receiver.js';

/**
 * The Node webhook sender against a real receiver on 127.0.0.1: it connects to the address it is
 * given whatever the URL's name (DNS rebinding cannot move it) while the Host header keeps the
 * name, follows no redirect, gives up at its timeout and reads at most 1 KiB of the answer.
 */

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

const sender = createNodeWebhookSender();
const body = JSON.stringify({ type: 'watch.test' });
const headers = { 'content-type': 'application/json', 'webhook-id': 'evt_1' };

describe('the Node webhook sender', () => {
  it('connects to the checked address, not to what the name resolves to, keeping the name as Host', async () => {
    receiver.answer(204);
    const before = receiver.received.length;
    // rebinding.invalid resolves nowhere: only the pinned address can be reached.
    const url = `http://rebinding.invalid:${receiver.port}/hook?x=1`;
    const answer = await sender.send({ url, address: '127.0.0.1', headers, body, timeoutMs: 2000 });
    expect(answer).toEqual({ kind: 'answered', status: 204 });
    const [request] = receiver.received.slice(before);
    expect(request).toMatchObject({ path: '/hook?x=1', body });
    expect(request?.headers.host).toBe(`rebinding.invalid:${receiver.port}`);
    expect(request?.headers['webhook-id']).toBe('evt_1');
  });

  it('answers a redirect with its status, without following it', async () => {
    receiver.answer({ status: 302, location: receiver.url('/elsewhere') });
    const before = receiver.received.length;
    const answer = await sender.send({
      url: receiver.url(),
      address: '127.0.0.1',
      headers,
      body,
      timeoutMs: 2000,
    });
    expect(answer).toEqual({ kind: 'answered', status: 302 });
    expect(receiver.received.slice(before).map((request) => request.path)).toEqual(['/hook']);
  });

  it('gives up at its timeout when the receiver never answers', async () => {
    receiver.answer('hang');
    const answer = await sender.send({
      url: receiver.url(),
      address: '127.0.0.1',
      headers,
      body,
      timeoutMs: 300,
    });
    expect(answer).toEqual({ kind: 'failed', reason: 'no answer within 300 ms' });
  });

  it('reads an answer only to its first KiB: one that never ends does not hold it', async () => {
    receiver.answer({ status: 200, body: 'x'.repeat(2048), endless: true });
    const answer = await sender.send({
      url: receiver.url(),
      address: '127.0.0.1',
      headers,
      body,
      // Far past the test's own timeout: only stopping at 1 KiB lets it resolve.
      timeoutMs: 600_000,
    });
    expect(answer).toEqual({ kind: 'answered', status: 200 });
  });

  it('fails when the connection is refused', async () => {
    const port = await freePort();
    const answer = await sender.send({
      url: `http://127.0.0.1:${port}/`,
      address: '127.0.0.1',
      headers,
      body,
      timeoutMs: 2000,
    });
    expect(answer).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/ECONNREFUSED/) });
  });
});
