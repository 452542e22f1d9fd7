import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { webCrypto } from '../../src/platform.js';
import { newEventId } from '../../src/watch/model/index.js';
import { newWebhookSecret, signedHeaders } from '../../src/webhooks/signing.js';

/** The Standard Webhooks signature, as the package's own verifier reads it. */

describe('a webhook secret', () => {
  it('is whsec_ and the base64 of 32 random bytes', () => {
    const secret = newWebhookSecret(webCrypto.randomBytes);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(atob(secret.slice('whsec_'.length))).toHaveLength(32);
    expect(newWebhookSecret(webCrypto.randomBytes)).not.toBe(secret);
  });
});

describe('signed headers', () => {
  const secret = newWebhookSecret(webCrypto.randomBytes);
  const body = JSON.stringify({ type: 'watch.test', data: { note: 'é😀' } });

  it('verify with the standardwebhooks verifier', () => {
    const id = newEventId(webCrypto.randomBytes);
    const headers = signedHeaders(secret, id, new Date(), body);
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('reproduce the Standard Webhooks specification’s published test vector', () => {
    // The vector of the standard's reference libraries (libraries/javascript/src/webhook.test.ts,
    // "sign function works", in github.com/standard-webhooks/standard-webhooks): the signature of
    // these inputs is fixed, so a delimiter, base64 alphabet or key decoding of our own making
    // would fail here, not at a receiver.
    const headers = signedHeaders(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      new Date(1614265330 * 1000),
      '{"test": 2432232314}',
    );
    expect(headers).toEqual({
      'content-type': 'application/json',
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('sign the attempt’s whole second: a time within it signs as the second itself', () => {
    const vector = [
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
    ] as const;
    const body = '{"test": 2432232314}';
    expect(signedHeaders(...vector, new Date(1614265330_999), body)).toEqual(
      signedHeaders(...vector, new Date(1614265330_000), body),
    );
  });

  it('do not verify with another secret, another body or an old timestamp', () => {
    const headers = signedHeaders(secret, 'evt_2', new Date(), body);
    const other = new Webhook(newWebhookSecret(webCrypto.randomBytes));
    expect(() => other.verify(body, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow(WebhookVerificationError);
    const old = signedHeaders(secret, 'evt_2', new Date(Date.now() - 10 * 60_000), body);
    expect(() => new Webhook(secret).verify(body, old)).toThrow(/too old/);
  });
});
