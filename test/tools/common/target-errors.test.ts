import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  postError,
  startTestService,
  type TestService,
} from '../../support/service.js';

/**
 * Errors that guide, over real HTTP against the real app: each tool refuses a text meant for
 * another (an address in a domain field, a URL, an e-mail address, a network, an address with its
 * port) with 400 `invalid_target`, saying what it is and which tool or form takes it; an empty
 * field says it is empty; a long name says it is too long without being repeated whole; and with
 * DNS_KNOWN_ZONES (the demo's closed world) a name outside it says so and names the zones.
 */

let service: TestService;
let closedWorld: TestService;

beforeAll(async () => {
  [service, closedWorld] = await Promise.all([
    startTestService(),
    startTestService({
      env: { DNS_KNOWN_ZONES: 'demo-sender.com,Demo-Mail.net.' },
      zones: [
        { origin: 'demo-sender.com', records: { 'demo-sender.com': { A: ['185.44.0.10'] } } },
      ],
    }),
  ]);
});
afterAll(() => Promise.all([service.close(), closedWorld.close()]));

const longName = `${'mail-'.repeat(58)}example.com`;

describe('a text meant for another tool', () => {
  it.each([
    [
      'an IP address to the domain tool',
      '/domain/v1',
      { domain: '8.8.8.8' },
      '8.8.8.8 is an IP address, not a domain name: the IP tool checks 8.8.8.8 (POST /ip/v1)',
    ],
    [
      'an IPv6 address to the mail tool',
      '/mail/v1',
      { domain: '2001:4860:4860::8888' },
      '2001:4860:4860::8888 is an IP address, not a domain name: the IP tool checks 2001:4860:4860::8888 (POST /ip/v1)',
    ],
    [
      'an IP address to the pool tool',
      '/pool/v1/discover',
      { pool: '185.44.0.10' },
      '185.44.0.10 is an IP address, not the host name of a pool: the IP tool checks 185.44.0.10 (POST /ip/v1)',
    ],
    [
      'a network to the domain tool',
      '/domain/v1',
      { domain: '185.44.0.0/24' },
      '185.44.0.0/24 is a network, not a domain name: the IP tool checks its addresses one at a time (POST /ip/v1)',
    ],
    [
      'an e-mail address to the IP tool',
      '/ip/v1',
      { target: 'postmaster@example.com' },
      'postmaster@example.com is an e-mail address, not an IP address or a host name: the mail tool checks example.com (POST /mail/v1)',
    ],
    [
      'a URL of an address to the domain tool',
      '/domain/v1',
      { domain: 'http://8.8.8.8/' },
      'http://8.8.8.8/ is a URL, not a domain name: the IP tool checks 8.8.8.8 (POST /ip/v1)',
    ],
  ])('answers %s with the tool that takes it', async (_, path, body, error) => {
    await expectError(await service.post(path, body), 400, postError('invalid_target', error));
  });

  it.each([
    [
      'a URL to the domain tool',
      '/domain/v1',
      { domain: 'https://www.example.com/about' },
      'https://www.example.com/about is a URL, not a domain name: give its host name alone, www.example.com',
    ],
    [
      'an e-mail address to the mail tool',
      '/mail/v1',
      { domain: 'postmaster@example.com' },
      'postmaster@example.com is an e-mail address, not a domain name: give its domain, example.com',
    ],
    [
      'an address and a port to the IP tool',
      '/ip/v1',
      { target: '8.8.8.8:25' },
      '8.8.8.8:25 has a port, which no check takes: give the address alone, 8.8.8.8',
    ],
    [
      'a network to the IP tool',
      '/ip/v1',
      { q: '185.44.0.0/24' },
      '185.44.0.0/24 is a network, not one address: give one of its addresses',
    ],
  ])('answers %s with the form it takes', async (_, path, body, error) => {
    await expectError(await service.post(path, body), 400, postError('invalid_target', error));
  });

  it('answers a watch of kind domain on an address with the kind that watches it', async () => {
    await expectError(
      await service.post('/watch/v1', { target: '8.8.8.8', kind: 'domain' }),
      400,
      postError(
        'invalid_target',
        '8.8.8.8 is an IP address, not a domain name: watch 8.8.8.8 with kind ip',
      ),
    );
  });
});

describe('an empty or over-long name', () => {
  it.each([
    ['/domain/v1', { domain: '   ' }, 'the value is empty: give a domain name'],
    ['/ip/v1', { target: ' ', q: '' }, 'the value is empty: give an IP address or a host name'],
    ['/pool/v1/discover', { pool: '\t' }, 'the value is empty: give the host name of a pool'],
  ])('says %s with %j is empty, with no leading space', async (path, body, error) => {
    await expectError(await service.post(path, body), 400, postError('invalid_target', error));
  });

  it.each(['/domain/v1', '/mail/v1'])(
    'says a 301-character name to %s is too long, repeating 64 of its characters',
    async (path) => {
      await expectError(
        await service.post(path, { domain: longName }),
        400,
        postError(
          'invalid_target',
          `${longName.slice(0, 63)}… is too long: 301 characters, where a host name has at most 253 (RFC 1035 §2.3.4)`,
        ),
      );
    },
  );
});

describe('a closed DNS world (DNS_KNOWN_ZONES)', () => {
  const outside =
    'example.com is outside the DNS this service resolves in, which knows only the names under demo-sender.com and demo-mail.net';

  it.each([
    ['/domain/v1', { domain: 'example.com' }],
    ['/mail/v1', { domain: 'Example.COM.' }],
    ['/ip/v1', { target: 'example.com' }],
    ['/pool/v1/discover', { pool: 'example.com' }],
  ])('refuses a name outside it on %s, naming the zones it knows', async (path, body) => {
    await expectError(
      await closedWorld.post(path, body),
      400,
      postError('invalid_target', outside),
    );
  });

  it('checks a name inside it', async () => {
    const response = await closedWorld.post('/domain/v1', { domain: 'demo-sender.com' });
    expect(response.status, await response.clone().text()).toBe(200);
  });

  it('refuses a watch of a name outside it before taking a unit', async () => {
    const before = (await (await closedWorld.get('/mail/v1/status')).json()) as {
      dailyRemaining: number;
    };
    await expectError(
      await closedWorld.post('/watch/v1', { target: 'example.com', kind: 'mail' }),
      400,
      postError('invalid_target', outside),
    );
    const after = (await (await closedWorld.get('/mail/v1/status')).json()) as {
      dailyRemaining: number;
    };
    expect(after.dailyRemaining).toBe(before.dailyRemaining);
  });
});
