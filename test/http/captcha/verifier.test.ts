import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CaptchaProvider } from '../../../src/http/captcha/providers.js';
import { createCaptchaVerifier, type CaptchaVerdict } from '../../../src/http/captcha/verifier.js';
import {
  startFakeCaptchaProvider,
  type FakeCaptchaProvider,
} from '../../../fixtures/captcha-provider.js';

const secret = 'server-secret-123';
const callerIp = '203.0.113.7';

const passed: CaptchaVerdict = { ok: true };
const failedOpen: CaptchaVerdict = { ok: true, failedOpen: true };
const rejected: CaptchaVerdict = { ok: false, reason: 'rejected' };
const unavailable: CaptchaVerdict = { ok: false, reason: 'provider_unavailable' };

// Per provider: the form field names of its protocol, and what a provider outage yields
// (SmartCaptcha fails open as Yandex documents, the siteverify providers fail closed).
const providers: {
  provider: CaptchaProvider;
  tokenField: string;
  ipField: string;
  whenDown: CaptchaVerdict;
}[] = [
  { provider: 'smartcaptcha', tokenField: 'token', ipField: 'ip', whenDown: failedOpen },
  { provider: 'turnstile', tokenField: 'response', ipField: 'remoteip', whenDown: unavailable },
  { provider: 'hcaptcha', tokenField: 'response', ipField: 'remoteip', whenDown: unavailable },
];

let fake: FakeCaptchaProvider;

beforeAll(async () => {
  fake = await startFakeCaptchaProvider({ goodTokens: ['pass-token'] });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.setMode('ok');
  fake.requests.length = 0;
});

describe.each(providers)('$provider verifier', ({ provider, tokenField, ipField, whenDown }) => {
  const verifier = (timeoutMs?: number) =>
    createCaptchaVerifier({ provider, secret, verifyUrl: fake.urlFor(provider), timeoutMs });

  it('passes a token the provider accepts', async () => {
    expect(await verifier().verify('pass-token', callerIp)).toEqual(passed);
  });

  it('rejects a token the provider refuses', async () => {
    expect(await verifier().verify('forged-token', callerIp)).toEqual(rejected);
  });

  it('sends the secret, the token and the caller IP form-urlencoded', async () => {
    await verifier().verify('pass-token', callerIp);
    expect(fake.requests).toEqual([
      {
        path: new URL(fake.urlFor(provider)).pathname,
        contentType: expect.stringMatching(/^application\/x-www-form-urlencoded/),
        fields: { secret, [tokenField]: 'pass-token', [ipField]: callerIp },
      },
    ]);
  });

  it('refuses an empty token without asking the provider', async () => {
    expect(await verifier().verify('', callerIp)).toEqual(rejected);
    expect(fake.requests).toHaveLength(0);
  });

  it(`treats an HTTP 500 from the provider as ${whenDown.ok ? 'a pass' : 'unavailable'}`, async () => {
    fake.setMode('error');
    expect(await verifier().verify('forged-token', callerIp)).toEqual(whenDown);
  });

  it('gives up on a provider that does not answer within the timeout', async () => {
    fake.setMode('hang');
    const started = performance.now();
    expect(await verifier(200).verify('forged-token', callerIp)).toEqual(whenDown);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(150);
    expect(elapsed).toBeLessThan(1000);
  });

  it('treats a provider that cannot be reached like one that is down', async () => {
    const gone = await startFakeCaptchaProvider({ goodTokens: [] });
    await gone.close();
    const verdict = await createCaptchaVerifier({
      provider,
      secret,
      verifyUrl: gone.urlFor(provider),
    }).verify('forged-token', callerIp);
    expect(verdict).toEqual(whenDown);
  });

  it('refuses a 200 answer that is not JSON', async () => {
    fake.setMode('not-json');
    expect(await verifier().verify('pass-token', callerIp)).toEqual(unavailable);
  });
});

describe('provider endpoints', () => {
  it.each([
    ['smartcaptcha', 'https://smartcaptcha.yandexcloud.net/validate'],
    ['turnstile', 'https://challenges.cloudflare.com/turnstile/v0/siteverify'],
    ['hcaptcha', 'https://api.hcaptcha.com/siteverify'],
  ] as const)('posts to the documented %s endpoint unless overridden', async (provider, url) => {
    const called: string[] = [];
    const fetchSpy: typeof fetch = async (input) => {
      called.push(String(input));
      return new Response('{}', { status: 200 });
    };
    await createCaptchaVerifier({ provider, secret, fetch: fetchSpy }).verify('t', callerIp);
    expect(called).toEqual([url]);
  });
});
