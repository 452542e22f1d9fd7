import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/node/config.js';
import type { WatchEvent } from '../../src/watch/index.js';
import type { ReceivedWebhook } from '../../fixtures/webhook-receiver.js';
import { describeDelivery } from '../../scripts/demo-delivery.js';
import {
  applyDemoWatchSettings,
  demoWatchDefaults,
  watchInstructions,
} from '../../scripts/demo-watch.js';
import { demoFlapping } from '../../scripts/demo-world.js';

/**
 * The demo's watch settings (scripts/demo-watch.ts): what it sets when the user has not, what it
 * leaves alone, that the service takes them, and the line the demo receiver prints for a delivery
 * (scripts/demo-delivery.ts), its signature checked with the standardwebhooks package.
 */

describe('the demo’s watch settings', () => {
  it('set loopback receivers, an operator token and 30 s intervals, which the service takes', () => {
    const env: Record<string, string | undefined> = {};
    const settings = applyDemoWatchSettings(env);
    expect(env).toMatchObject({
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128',
      WATCH_MIN_INTERVAL_S: '30',
      WATCH_INTERVAL_S: '30',
    });
    expect(settings).toMatchObject({
      operatorToken: env.OPERATOR_TOKEN,
      intervalS: 30,
      minIntervalS: 30,
      flapMs: demoWatchDefaults.flapS * 1000,
      receiverPort: demoWatchDefaults.receiverPort,
    });
    const config = readConfig(env);
    expect(config.watch.minIntervalS).toBe(30);
    expect(config.watch.operatorToken).toBe(settings.operatorToken);
    // A new token each run: a demo left listening is no one's open door.
    expect(applyDemoWatchSettings({}).operatorToken).not.toBe(settings.operatorToken);
  });

  it('keep what the user set, take an empty variable as unset, and never go below the minimum', () => {
    const env: Record<string, string | undefined> = {
      OPERATOR_TOKEN: 'my-own-operator-token-123',
      WEBHOOK_ALLOW_NETWORKS: '',
      WATCH_MIN_INTERVAL_S: '120',
      DEMO_FLAP_S: '2.5',
      DEMO_RECEIVER_PORT: '9099',
    };
    const settings = applyDemoWatchSettings(env);
    expect(env.OPERATOR_TOKEN).toBe('my-own-operator-token-123');
    expect(env.WEBHOOK_ALLOW_NETWORKS).toBe('127.0.0.0/8,::1/128');
    expect(env.WATCH_INTERVAL_S).toBe('120');
    expect(settings).toMatchObject({ intervalS: 120, flapMs: 2500, receiverPort: 9099 });
    expect(readConfig(env).watch.intervalS).toBe(120);

    // An interval under the demo's 30 s brings the minimum down with it.
    const short: Record<string, string | undefined> = { WATCH_INTERVAL_S: '10' };
    expect(applyDemoWatchSettings(short)).toMatchObject({ intervalS: 10, minIntervalS: 10 });
    expect(readConfig(short).watch).toMatchObject({ intervalS: 10, minIntervalS: 10 });
  });

  it.each([
    ['DEMO_FLAP_S', 'soon', /DEMO_FLAP_S must be a positive number of seconds, not soon/],
    ['DEMO_FLAP_S', '-1', /DEMO_FLAP_S must be a positive number of seconds/],
    ['DEMO_RECEIVER_PORT', '70000', /DEMO_RECEIVER_PORT must be a port from 1 to 65535/],
    ['DEMO_RECEIVER_PORT', '80.5', /DEMO_RECEIVER_PORT must be a port/],
  ])('refuse %s=%s, naming it', (name, value, message) => {
    expect(() => applyDemoWatchSettings({ [name]: value })).toThrow(message);
  });

  it('print a watch command on the flapping address with the token, and when to expect what', () => {
    const settings = applyDemoWatchSettings({});
    const text = watchInstructions('http://127.0.0.1:8787/tools/ip-reputation', settings);
    expect(text).toContain('\n  npm run demo:receiver\n');
    expect(text).toContain(
      `curl -s -X POST http://127.0.0.1:8787/tools/ip-reputation/watch/v1 -H 'content-type: application/json' -H 'authorization: Bearer ${settings.operatorToken}' -d '{"target":"${demoFlapping.address}","webhook_url":"http://127.0.0.1:8788/hook","interval_s":30}'`,
    );
    expect(text).toContain('listed on bl.spamcop.net for 2 min');
    expect(text).toContain('watch.listed\n  # 30 s to 1 min after each listing');
  });
});

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const event: WatchEvent = {
  type: 'watch.listed',
  created_at: '2026-11-27T12:00:00.000Z',
  data: {
    watch: {
      id: 'w1',
      target: demoFlapping.address,
      kind: 'ip',
      page_url: 'http://127.0.0.1:8787/tools/ip-reputation/watch/v1/w1/share',
      badge_url: 'http://127.0.0.1:8787/tools/ip-reputation/watch/v1/w1/badge.svg',
    },
    added: [{ zone: 'bl.spamcop.net', name: 'SpamCop', code: '127.0.0.2', meaning: 'listed' }],
    removed: [],
    listed_on: [{ zone: 'bl.spamcop.net', name: 'SpamCop' }],
    verdict: 'poor',
    score: 70,
  },
};

function delivery(body: string, signedAt: Date, key = secret): ReceivedWebhook {
  const id = 'evt_1';
  return {
    path: '/hook',
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
      'webhook-signature': new Webhook(key).sign(id, signedAt, body),
    },
    body,
  };
}

describe('the demo receiver’s line', () => {
  const now = new Date();
  const body = JSON.stringify(event);

  it('says the type, the target, what changed, the verdict, and that the signature is the watch’s', () => {
    expect(describeDelivery(delivery(body, now), secret, new Date('2026-11-27T12:00:05Z'))).toEqual(
      {
        type: 'watch.listed',
        signature: 'ok',
        line: `12:00:05 watch.listed ${demoFlapping.address} | +bl.spamcop.net (127.0.0.2) | poor 70/100 | signature ok`,
        watch: { id: 'w1', page_url: event.data.watch.page_url },
      },
    );
  });

  it.each([
    ['another secret', delivery(body, now, 'whsec_c2VjcmV0LW9mLWFub3RoZXItd2F0Y2g=')],
    ['a body changed after signing', { ...delivery(body, now), body: body.replace('70', '99') }],
    ['a signature older than 5 minutes', delivery(body, new Date(now.getTime() - 600_000))],
  ])('says WRONG for %s', (_, request) => {
    expect(describeDelivery(request, secret, now)).toMatchObject({
      signature: 'wrong',
      line: expect.stringContaining('signature WRONG'),
    });
  });

  it('says when it has no secret to check with, and shows a body that is no standard event', () => {
    expect(describeDelivery(delivery(body, now), undefined, now).signature).toBe('unchecked');
    const chat = describeDelivery(delivery('{"text":"listed"}', now), secret, now);
    expect(chat).toMatchObject({ type: 'not a standard event', signature: 'ok' });
    expect(chat.line).toContain('{"text":"listed"}');
  });
});
