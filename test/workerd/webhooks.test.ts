import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webCrypto } from '../../src/platform.js';
import { newEventId } from '../../src/watch/model/index.js';
import { newWebhookSecret, signedHeaders } from '../../src/webhooks/signing.js';
import { createFetchWebhookSender } from '../../src/workers/webhook-sender.js';
import { startWebhookReceiver } from './support/service.js';

/**
 * Webhooks inside workerd: the Standard Webhooks package signs and verifies here as on Node (it
 * is plain JavaScript), and the Workers sender POSTs through `fetch` to a receiver the fixture
 * service runs on 127.0.0.1, following no redirect and giving up at its timeout.
 */

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

const sender = createFetchWebhookSender();
const secret = newWebhookSecret(webCrypto.randomBytes);

async function send(body: string, timeoutMs = 5000) {
  const id = newEventId(webCrypto.randomBytes);
  const headers = signedHeaders(secret, id, new Date(), body);
  return sender.send({ url: receiver.url, address: '127.0.0.1', headers, body, timeoutMs });
}

describe('webhooks on Workers', () => {
  it('deliver a body signed here that the package’s verifier accepts', async () => {
    await receiver.answer(204);
    const body = JSON.stringify({ type: 'watch.test', created_at: new Date().toISOString() });
    expect(await send(body)).toEqual({ kind: 'answered', status: 204 });
    const [request] = (await receiver.received()).slice(-1);
    expect(request?.body).toBe(body);
    expect(new Webhook(secret).verify(request!.body, request!.headers)).toEqual(JSON.parse(body));
  });

  it('answer a redirect with its status, without following it', async () => {
    const before = (await receiver.received()).length;
    await receiver.answer({ status: 307, location: `${receiver.url}/elsewhere` });
    expect(await send('{}')).toEqual({ kind: 'answered', status: 307 });
    expect((await receiver.received()).slice(before).map((request) => request.path)).toEqual([
      '/hook',
    ]);
  });

  it('fail at their timeout when the receiver never answers', async () => {
    await receiver.answer('hang');
    expect(await send('{}', 300)).toEqual({ kind: 'failed', reason: 'no answer within 300 ms' });
  });
});
