import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { webCrypto } from '../../src/platform.js';
import { newEventId } from '../../src/watch/secrets.js';
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

  it('sign HMAC-SHA256 over id.timestamp.body with the secret’s bytes', async () => {
    const at = new Date('2026-05-10T12:00:00Z');
    const headers = signedHeaders(secret, 'evt_1', at, body);
    const key = await crypto.subtle.importKey(
      'raw',
      Uint8Array.from(atob(secret.slice(6)), (c) => c.charCodeAt(0)),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const mac = await crypto.subtle.sign(
      'HMAC',
      key,
      new TextEncoder().encode(`evt_1.${at.getTime() / 1000}.${body}`),
    );
    expect(headers['webhook-signature']).toBe(
      `v1,${btoa(String.fromCharCode(...new Uint8Array(mac)))}`,
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
