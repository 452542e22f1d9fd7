import { afterEach, describe, expect, it } from 'vitest';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import { rewrittenAddress } from '../../../fixtures/lying-resolver.js';
import {
  type TestService,
  type TestServiceOptions,
  expectError,
  postError,
  startTestService,
} from '../../support/service.js';
import type { IpCheckAnswer, ListsAnswer } from '../../support/responses.js';

/**
 * The whole service behind resolvers that lie, over real DNS on the wire: a proxy on 127.0.0.1 in
 * front of the fixture DNS server answers NXDOMAIN to everything, turns NXDOMAIN into a public
 * address, or turns dishonest after start; and a list that stops answering. Nothing may then be
 * called clean, good or nonexistent.
 */

const listedIp = '185.220.101.5';
const cleanIp = '8.8.4.4';
const listings = {
  [listedIp]: { 'zen.spamhaus.org': ['127.0.0.2'], 'bl.spamcop.net': ['127.0.0.2'] },
  '185.220.101.6': { 'zen.spamhaus.org': ['127.0.0.2'] },
  '185.220.101.7': { 'bl.spamcop.net': ['127.0.0.2'] },
};
const sender: FixtureZone = {
  origin: 'sender-one.com',
  records: {
    'sender-one.com': { TXT: ['v=spf1 ip4:192.0.3.10 -all'], MX: [] },
    '_dmarc.sender-one.com': { TXT: ['v=DMARC1; p=reject'] },
  },
};

const running: TestService[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()));
});

/**
 * How long the resolver may take to answer, unless a test is about a list that stops answering: a
 * self-test asks every list at once (about 150 queries with the default catalogue), and on a
 * loaded machine 300 ms let every probe time out, which reads as a silent resolver, not the lie.
 */
const patientDns = { DNS_TIMEOUT_MS: '1000' };

async function serviceWith(options: TestServiceOptions): Promise<TestService> {
  const env = typeof options.env === 'function' ? options.env : { ...patientDns, ...options.env };
  const service = await startTestService({ listings, zones: [sender], ...options, env });
  running.push(service);
  return service;
}

async function statusOf(service: TestService, tool: string) {
  const response = await service.get(`/${tool}/v1/status`);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function listsOf(service: TestService) {
  const response = await service.get('/lists');
  expect(response.status).toBe(200);
  return (await response.json()) as ListsAnswer;
}

async function badgeText(service: TestService, tool: string, token: string): Promise<string> {
  const svg = await (await service.get(`/${tool}/v1/share/${token}/badge.svg`)).text();
  return /<title>([^<]*)<\/title>/.exec(svg)?.[1] ?? '';
}

/** Every status endpoint and GET /lists say not configured, with a reason that says what to do. */
async function expectNotConfigured(service: TestService, reason: RegExp): Promise<void> {
  for (const tool of ['ip', 'domain', 'pool']) {
    const status = await statusOf(service, tool);
    expect(status).toMatchObject({ configured: false, reason: expect.stringMatching(reason) });
    expect(status.reason).toMatch(/unbound/);
    expect(status.reason).toMatch(/DNS_SERVERS/);
  }
  const lists = await listsOf(service);
  expect(lists).toMatchObject({ configured: false, reason: expect.stringMatching(reason) });
  expect(lists.lists.filter((list) => list.state === 'active')).toEqual([]);
}

/** Every tool refuses to answer: no verdict, no token, no "exists: false". */
async function expectChecksRefused(service: TestService): Promise<void> {
  const checks: [string, unknown][] = [
    ['/ip/v1', { target: listedIp }],
    ['/ip/v1', { target: cleanIp }],
    ['/domain/v1', { domain: 'sender-one.com' }],
    ['/domain/v1', { domain: 'no-such-domain-here.com' }],
    ['/pool/v1/discover', { pool: 'mx.sender-one.com' }],
  ];
  for (const [path, body] of checks) {
    await expectError(await service.post(path, body), 503, postError('not_configured'));
  }
}

describe('a resolver that answers NXDOMAIN to every query from the start', () => {
  it('is found at start: every status says configured false and why, every check is a 503', async () => {
    const service = await serviceWith({ lying: 'nxdomain' });
    const reason = /answers NXDOMAIN even for the blocklists' documented test entries/;
    await expectNotConfigured(service, reason);
    await expectChecksRefused(service);
    const lists = await listsOf(service);
    expect(lists.lists.find((list) => list.zone === 'zen.spamhaus.org')).toMatchObject({
      state: 'disabled',
      reason: 'self-test: test entry 127.0.0.2 is not listed',
    });
    // The start log says it first, with what to change.
    const warning = service.logs
      .map((line) => JSON.parse(line) as { level: string; msg: string; reason?: string })
      .find((entry) => entry.msg.startsWith('not configured'));
    expect(warning).toMatchObject({ level: 'error', reason: expect.stringMatching(reason) });
  });
});

describe('a resolver that turns NXDOMAIN into a public address', () => {
  it('is found at start: configured false, the rewriting named, every check a 503', async () => {
    const service = await serviceWith({ lying: 'rewrite' });
    await expectNotConfigured(
      service,
      new RegExp(`turns NXDOMAIN into addresses .*${rewrittenAddress}`),
    );
    await expectChecksRefused(service);
  });
});

describe('a resolver that turns to NXDOMAIN after start', () => {
  it('stores no false verdict: the next check is a 503, status says so, and nothing cached before is served', async () => {
    const service = await serviceWith({ lying: 'honest', services: { selfTestIntervalMs: 300 } });
    const honest = (await (
      await service.post('/ip/v1', { target: cleanIp })
    ).json()) as IpCheckAnswer;
    expect(honest.ip_score).toMatchObject({ verdict: 'good', listed: 0 });
    expect(await badgeText(service, 'ip', honest.token)).toMatch(/clean on \d+ lists/);

    service.lying!.setMode('nxdomain');
    // Listed on two lists: a lying resolver would make it look clean.
    const during = await service.post('/ip/v1', { target: '185.220.101.6' });
    await expectError(during, 503, postError('not_configured'));
    for (const tool of ['ip', 'domain', 'pool']) {
      expect(await statusOf(service, tool)).toMatchObject({ configured: false });
    }
    // The result made while it was honest is not served either.
    await expectError(
      await service.post('/ip/v1', { target: cleanIp }),
      503,
      postError('not_configured'),
    );
    await expectError(
      await service.post('/domain/v1', { domain: 'sender-one.com' }),
      503,
      postError('not_configured'),
    );

    service.lying!.setMode('honest');
    await expect
      .poll(async () => (await statusOf(service, 'ip')).configured, { timeout: 3000 })
      .toBe(true);
    const after = (await (
      await service.post('/ip/v1', { target: '185.220.101.6' })
    ).json()) as IpCheckAnswer;
    // Its NXDOMAIN answers were forgotten with the lie: the listing is found.
    expect(after.ip_score).toMatchObject({ listed: 1, verdict: 'poor' });
    const again = (await (
      await service.post('/ip/v1', { target: cleanIp })
    ).json()) as IpCheckAnswer;
    expect(again.from_cache).toBe(false);
  });

  it('is found within one re-test interval when no check comes', async () => {
    const service = await serviceWith({ lying: 'honest', services: { selfTestIntervalMs: 300 } });
    expect(await statusOf(service, 'ip')).toEqual(expect.objectContaining({ configured: true }));
    service.lying!.setMode('nxdomain');
    const started = performance.now();
    await expect
      .poll(async () => (await statusOf(service, 'domain')).configured, {
        timeout: 3000,
        interval: 25,
      })
      .toBe(false);
    expect(performance.now() - started).toBeLessThan(1500);
    await expectNotConfigured(service, /answers NXDOMAIN even/);
  });
});

describe('a list that stops answering', () => {
  it('costs three checks their timeout, then is on hold: reported as not answered, without waiting, and back as soon as it answers', async () => {
    const service = await serviceWith({
      lying: 'honest',
      services: { holdProbeMs: 100 },
      env: { DNS_TIMEOUT_MS: '600', CHECK_DEADLINE_MS: '2000' },
    });
    service.lying!.silence(['bl.spamcop.net']);
    const check = async (target: string) => {
      const started = performance.now();
      const answer = (await (await service.post('/ip/v1', { target })).json()) as IpCheckAnswer;
      return { answer, ms: performance.now() - started };
    };
    for (const target of ['9.9.9.1', '9.9.9.2', '9.9.9.3']) {
      const { answer } = await check(target);
      expect(answer.ip_score.lists.find((list) => list.zone === 'bl.spamcop.net')).toMatchObject({
        status: 'timeout',
      });
    }

    // Listed on spamcop, which is silent: never clean, never listed, and not waited for.
    const { answer, ms } = await check('185.220.101.7');
    expect(ms).toBeLessThan(250);
    expect(answer.ip_score.lists.find((list) => list.zone === 'bl.spamcop.net')).toEqual(
      expect.objectContaining({
        status: 'timeout',
        on_hold: true,
        error: expect.stringMatching(/^on hold since .*: 3 look-ups in a row got no answer/),
      }),
    );
    expect(answer.ip_score).toMatchObject({ listed: 0, on_hold: 1, not_answered: 0 });
    // The lists it may ask: all but those waiting for a key (none is set), said apart.
    const { needs_key: needsKey } = answer.ip_score;
    const asked = answer.ip_score.total - needsKey;
    expect(answer.ip_score.answered).toBe(asked - 1);
    expect(answer.ip_score.summary).toBe(
      `not listed on any of ${asked - 1} lists that answered; 1 on hold; ${needsKey} need a key`,
    );
    expect(await badgeText(service, 'ip', answer.token)).toMatch(
      new RegExp(`clean on ${asked - 1} lists · 1 on hold · \\d+/100$`),
    );
    const held = (await listsOf(service)).lists.find((list) => list.zone === 'bl.spamcop.net');
    expect(held).toMatchObject({ state: 'on_hold', reason: expect.stringMatching(/^on hold/) });

    service.lying!.silence([]);
    await expect
      .poll(
        async () =>
          (await listsOf(service)).lists.find((list) => list.zone === 'bl.spamcop.net')?.state,
        { timeout: 3000, interval: 50 },
      )
      .toBe('active');
    const back = await check('185.220.101.7');
    expect(back.answer.ip_score.lists.find((list) => list.zone === 'bl.spamcop.net')).toMatchObject(
      { status: 'listed' },
    );
  });
});
