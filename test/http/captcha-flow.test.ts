import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { CaptchaProvider } from '../../src/http/captcha/index.js';
import { failedCaptchasPerDay } from '../../src/http/guard.js';
import {
  type CaptchaProviderFixture,
  type TestService,
  startCaptchaProvider,
  startTestService,
} from '../support/service.js';

/**
 * The captcha rule of docs/DESIGN.md over real HTTP, for each provider against a local fake of its
 * verify endpoint: who is asked for a token, where the token may come from, what a missing,
 * rejected or unverifiable token answers, and that neither the secret nor a token is ever logged.
 * The same suite runs inside workerd against the Worker, verifying through its fetch.
 */

const goodToken = 'good-token-5f0c1e';
const badToken = 'bad-token-9a7d2b';
const secret = 'secret-2c9e77a1';
const siteKey = 'site-key-public';

let provider: CaptchaProviderFixture;
beforeAll(async () => {
  provider = await startCaptchaProvider({ goodTokens: [goodToken] });
});
afterAll(() => provider.close());

afterEach(() => provider.setMode('ok'));

function start(name: CaptchaProvider, env: Record<string, string> = {}): Promise<TestService> {
  return startTestService({
    env: {
      CAPTCHA_PROVIDER: name,
      CAPTCHA_SITE_KEY: siteKey,
      CAPTCHA_SECRET: secret,
      CAPTCHA_VERIFY_URL: provider.urlFor(name),
      ...env,
    },
  });
}

async function remaining(s: TestService): Promise<number> {
  const status = (await (await s.get('/ip/v1/status')).json()) as { dailyRemaining: number };
  return status.dailyRemaining;
}

/** The form fields each protocol sends: secret, token and the caller's address. */
const fieldNames: Record<CaptchaProvider, { token: string; ip: string }> = {
  smartcaptcha: { token: 'token', ip: 'ip' },
  turnstile: { token: 'response', ip: 'remoteip' },
  hcaptcha: { token: 'response', ip: 'remoteip' },
};

describe.each(['smartcaptcha', 'turnstile', 'hcaptcha'] as const)('%s', (name) => {
  let s: TestService;
  beforeAll(async () => {
    s = await start(name);
  });
  afterAll(() => s.close());

  it('reports captchaRequired and the site key in status', async () => {
    const status = await (await s.get('/ip/v1/status')).json();
    expect(status).toMatchObject({ captchaRequired: true, siteKey });
  });

  it.each([
    ['the body field smart-token', { 'smart-token': goodToken }, {}],
    ['the body field captchaToken', { captchaToken: goodToken }, {}],
    ['the body field smart_token', { smart_token: goodToken }, {}],
    ['the header X-Captcha-Token', {}, { 'x-captcha-token': goodToken }],
  ])('accepts a good token in %s', async (_, fields, headers) => {
    const before = (await provider.requests()).length;
    const response = await s.post('/ip/v1', { target: '8.8.4.4', ...fields }, headers);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ captchaRequired: true, siteKey });
    const sent = (await provider.requests()).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(sent[0]?.fields).toEqual({
      secret,
      [fieldNames[name].token]: goodToken,
      [fieldNames[name].ip]: '127.0.0.1',
    });
  });

  it('takes the first non-empty token: an empty body field does not hide the header', async () => {
    const response = await s.post(
      '/ip/v1',
      { target: '8.8.4.4', 'smart-token': '', captchaToken: '' },
      { 'x-captcha-token': goodToken },
    );
    expect(response.status).toBe(200);
  });

  it('answers 403 captcha_required without a token, without asking the provider', async () => {
    const before = (await provider.requests()).length;
    const response = await s.post('/ip/v1', { target: '8.8.4.4' });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      status: 'error',
      code: 'captcha_required',
      captchaRequired: true,
      siteKey,
      dailyRemaining: await remaining(s),
    });
    expect((await provider.requests()).length).toBe(before);
  });

  it('answers 403 captcha_failed for a token the provider rejects, and charges nothing', async () => {
    const before = await remaining(s);
    const response = await s.post('/ip/v1', { target: '185.30.0.1', 'smart-token': badToken });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      code: 'captcha_failed',
      dailyRemaining: before,
    });
    expect(await remaining(s)).toBe(before);
  });

  it('asks for the captcha on a cached result too', async () => {
    expect((await s.post('/ip/v1', { target: '8.8.4.4', captchaToken: goodToken })).status).toBe(
      200,
    );
    expect((await s.post('/ip/v1', { target: '8.8.4.4' })).status).toBe(403);
  });

  const failOpen = name === 'smartcaptcha';
  it.each(['error', 'hang'] as const)(
    `${failOpen ? 'lets the check through' : 'answers 403 captcha_failed'} when the provider is down (%s)`,
    async (mode) => {
      await provider.setMode(mode);
      const response = await s.post('/ip/v1', { target: '8.8.4.4', 'smart-token': badToken });
      if (failOpen) {
        expect(response.status).toBe(200);
      } else {
        expect(response.status).toBe(403);
        expect(await response.json()).toMatchObject({ code: 'captcha_failed' });
      }
    },
  );

  it('refuses a 200 from the provider that is not its protocol (a wrong CAPTCHA_VERIFY_URL)', async () => {
    await provider.setMode('not-json');
    const response = await s.post('/ip/v1', { target: '8.8.4.4', 'smart-token': goodToken });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'captcha_failed' });
  });

  it('lets CAPTCHA_FREE_CHECKS fresh checks through before requiring a captcha', async () => {
    const free = await start(name, { CAPTCHA_FREE_CHECKS: '2' });
    onTestFinished(() => free.close());
    const status = (await (await free.get('/ip/v1/status')).json()) as Record<string, unknown>;
    expect(status.captchaRequired).toBe(false);
    expect(status).not.toHaveProperty('siteKey');
    const first = (await (await free.post('/ip/v1', { target: '8.8.4.4' })).json()) as object;
    expect(first).toMatchObject({ captchaRequired: false });
    expect(first).not.toHaveProperty('siteKey');
    // The answer to the last free check already says the next one needs a captcha.
    const second = await free.post('/ip/v1', { target: '8.8.8.8' });
    expect(second.status).toBe(200);
    expect(await second.json()).toMatchObject({ captchaRequired: true, siteKey });
    const third = await free.post('/ip/v1', { target: '1.1.1.1' });
    expect(third.status).toBe(403);
    expect(await third.json()).toMatchObject({ code: 'captcha_required' });
    expect((await free.post('/ip/v1', { target: '1.1.1.1', smart_token: goodToken })).status).toBe(
      200,
    );
  });

  it('never writes the secret or a token to the log', async () => {
    await s.post('/ip/v1', { target: '8.8.4.4', 'smart-token': goodToken });
    await s.post('/ip/v1', { target: '8.8.8.8', captchaToken: badToken });
    await s.post('/ip/v1', { target: '1.1.1.1' }, { 'x-captcha-token': badToken });
    await provider.setMode('error');
    await s.post('/ip/v1', { target: '9.9.9.9', smart_token: badToken });
    expect(s.logs.length).toBeGreaterThan(0);
    const logged = s.logs.join('\n');
    for (const text of [secret, goodToken, badToken]) expect(logged).not.toContain(text);
  });
});

describe('provider calls a caller can cause', () => {
  it('answers 429 with nothing left, without asking the provider or spending the token', async () => {
    const s = await start('turnstile', { DAILY_LIMIT: '1' });
    onTestFinished(() => s.close());
    expect((await s.post('/ip/v1', { target: '8.8.4.4', 'smart-token': goodToken })).status).toBe(
      200,
    );
    const before = (await provider.requests()).length;
    const refused = await s.post('/ip/v1', { target: '8.8.8.8', 'smart-token': goodToken });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'quota_exceeded', dailyRemaining: 0 });
    const noToken = await s.post('/ip/v1', { target: '1.1.1.1' });
    expect(noToken.status).toBe(429);
    expect((await provider.requests()).length).toBe(before);
    // A cached result costs no unit: with a solved captcha it is still answered.
    const cached = await s.post('/ip/v1', { target: '8.8.4.4', 'smart-token': goodToken });
    expect(cached.status).toBe(200);
    expect(await cached.json()).toMatchObject({ from_cache: true, dailyRemaining: 0 });
  });

  it(`asks the provider about at most ${failedCaptchasPerDay} failed tokens of a caller a day, even all at once`, async () => {
    const now = new Date('2026-05-10T12:00:00Z');
    const s = await startTestService({
      now,
      env: {
        CAPTCHA_PROVIDER: 'hcaptcha',
        CAPTCHA_SITE_KEY: siteKey,
        CAPTCHA_SECRET: secret,
        CAPTCHA_VERIFY_URL: provider.urlFor('hcaptcha'),
      },
    });
    onTestFinished(() => s.close());
    const before = (await provider.requests()).length;
    const answers = await Promise.all(
      Array.from({ length: failedCaptchasPerDay + 10 }, (_, i) =>
        s.post('/ip/v1', { target: `185.40.0.${i + 1}`, 'smart-token': `${badToken}-${i}` }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(
      Array(failedCaptchasPerDay + 10).fill(403),
    );
    expect((await provider.requests()).length - before).toBe(failedCaptchasPerDay);
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as Array<{
      code: string;
    }>;
    expect(bodies.every((body) => body.code === 'captcha_failed')).toBe(true);
    // Past the bound even a good token waits for the next UTC day; nothing was charged.
    const refused = await s.post('/ip/v1', { target: '8.8.4.4', 'smart-token': goodToken });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('retry-after')).toBe(String(12 * 3600));
    expect(await refused.json()).toMatchObject({ code: 'captcha_failed', dailyRemaining: 50 });
    expect((await provider.requests()).length - before).toBe(failedCaptchasPerDay);
    s.setNow(new Date('2026-05-11T00:00:00Z'));
    expect((await s.post('/ip/v1', { target: '8.8.4.4', 'smart-token': goodToken })).status).toBe(
      200,
    );
  });

  it('does not count passed verifications against the bound', async () => {
    const s = await start('turnstile', { DAILY_LIMIT: '100' });
    onTestFinished(() => s.close());
    for (let i = 0; i < failedCaptchasPerDay + 5; i++) {
      const response = await s.post('/ip/v1', {
        target: `185.41.0.${i + 1}`,
        captchaToken: goodToken,
      });
      expect(response.status).toBe(200);
    }
  });
});
