import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxBodyBytes } from '../../src/http/json-body.js';
import type { FixtureZone } from '../fixtures/dns-server.js';
import {
  type TestService,
  expectError,
  postError,
  startCaptchaProvider,
  startTestService,
} from '../support/service.js';

/**
 * Every error the API answers, over real HTTP: its status, the JSON body
 * `{status: "error", code, error}` (DESIGN.md), the five quota fields on POST routes, and the
 * headers that go with some (Allow, Retry-After). Odd input never reaches a 500. The same suite
 * runs inside workerd against the Worker (test/workerd/vitest.config.ts); the 500 of an
 * unexpected failure is in internal-error.test.ts.
 */

const zones: FixtureZone[] = [
  {
    origin: 'sender-fixture.net',
    records: {
      'intranet.sender-fixture.net': { A: ['10.1.2.3', '192.168.0.10'] },
      'loopback.sender-fixture.net': { A: ['127.0.0.1'] },
      'v6only.sender-fixture.net': { AAAA: ['2001:db8::1'] },
    },
  },
  { origin: 'broken-dns.net', behaviour: 'servfail' },
];

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ zones });
});
afterAll(() => service.close());

/** The error body of any other route: only the error triple. */
function plainError(code: string) {
  return { status: 'error', code, error: expect.any(String) };
}

function rawPost(
  body: RequestInit['body'],
  headers: Record<string, string> = {},
): Promise<Response> {
  return service.fetch(service.url('/ip/v1'), { method: 'POST', body, headers });
}

describe('400 on POST /ip/v1', () => {
  it('invalid_json for a body that is not JSON', async () => {
    await expectError(await service.post('/ip/v1', '{"target": '), 400, postError('invalid_json'));
  });

  it.each([
    ['no target', {}],
    ['only a captcha token', { 'smart-token': 'x' }],
    ['a target that is a number', { target: 8 }],
    ['a target that is null', { target: null }],
    ['a target that is a nested object', { target: { ip: '8.8.4.4' } }],
    ['a target that is an array', { target: ['8.8.4.4'] }],
    ['an alias q that is a boolean', { q: true }],
    ['a captcha token that is a number', { target: '8.8.4.4', 'smart-token': 5 }],
    ['a target longer than any host name', { target: 'a'.repeat(5000) }],
  ])('invalid_request for %s', async (_, body) => {
    await expectError(await service.post('/ip/v1', body), 400, postError('invalid_request'));
  });

  it.each([
    ['an array', '["8.8.4.4"]'],
    ['a string', '"8.8.4.4"'],
    ['a number', '42'],
    ['null', 'null'],
  ])('invalid_request for a body that is %s, not an object', async (_, body) => {
    await expectError(await service.post('/ip/v1', body), 400, postError('invalid_request'));
  });

  it.each([
    ['a short IPv4 form', '1.2.3'],
    ['an octal-looking IPv4', '010.8.4.4'],
    ['an octet over 255', '8.8.4.256'],
    ['five octets', '8.8.4.4.4'],
    ['an empty string', ''],
    ['only spaces', '   '],
    ['a URL', 'http://8.8.4.4/'],
    ['two "::" in an IPv6 address', '2001:db8::1::1'],
    ['nine IPv6 groups', '1:2:3:4:5:6:7:8:9'],
    ['an IPv6 group of five digits', '2a00:14500::1'],
    ['an IPv6 address with a zone index', 'fe80::1%eth0'],
    ['an IPv6 address in brackets', '[2a00:1450::1]'],
    ['an IPv6 network', '2a00:1450::/32'],
    ['an IPv6 address ending in a short IPv4 form', '::ffff:1.2.3'],
    ['a label with an underscore', 'mail_1.sender-fixture.net'],
    ['a NUL byte', '8.8.4.4\u0000'],
    ['a NUL inside a host name', 'mail.sender\u0000fixture.net'],
    ['a lone surrogate', 'mail.\ud800.net'],
    ['control characters', '\u0007\u001b[31m.net'],
    ['symbols that no IDNA maps', '☃☃☃...'],
    ['a name over 253 characters', `${'a'.repeat(60)}.`.repeat(5) + 'net'],
  ])('invalid_target for a malformed target: %s', async (_, target) => {
    await expectError(await service.post('/ip/v1', { target }), 400, postError('invalid_target'));
  });

  it.each([
    ['a private address', '10.0.0.1'],
    ['loopback', '127.0.0.1'],
    ['link-local', '169.254.1.1'],
    ['CGNAT', '100.64.0.1'],
    ['multicast', '224.0.0.1'],
    ['a documentation range', '203.0.113.9'],
    ['the broadcast address', '255.255.255.255'],
    ['"this network"', '0.0.0.0'],
    ['localhost', 'localhost'],
    ['a single label', 'mailhost'],
    ['a .local name', 'printer.local'],
    ['an .internal name', 'db.corp.internal'],
    ['a .home.arpa name', 'nas.home.arpa'],
    ['a reverse-mapping name', '4.4.8.8.in-addr.arpa'],
  ])('invalid_target for a target that is not public: %s', async (_, target) => {
    await expectError(await service.post('/ip/v1', { target }), 400, postError('invalid_target'));
  });

  /** RFC 6890 and the IANA IPv6 special-purpose registry, and what docs/ipv6.md adds to it. */
  it.each([
    ['the unspecified address', '::'],
    ['loopback', '::1'],
    ['IPv4-mapped, of a private address', '::ffff:10.0.0.1'],
    ['IPv4-mapped, of a public address', '::ffff:8.8.4.4'],
    ['IPv4-mapped, in hexadecimal', '::ffff:808:404'],
    ['IPv4-compatible (deprecated)', '::8.8.4.4'],
    ['IPv4-translated (RFC 6145)', '::ffff:0:808:404'],
    ['NAT64 well-known prefix (RFC 6052)', '64:ff9b::808:404'],
    ['NAT64 local-use prefix (RFC 8215)', '64:ff9b:1::a00:1'],
    ['discard-only (RFC 6666)', '100::1'],
    ['dummy prefix (RFC 9780)', '100:0:0:1::1'],
    ['IETF protocol assignments', '2001:1::1'],
    ['Teredo (RFC 4380)', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['benchmarking (RFC 5180)', '2001:2::1'],
    ['ORCHID (RFC 4843)', '2001:10::1'],
    ['ORCHIDv2 (RFC 7343)', '2001:20::1'],
    ['DRIP entity tags (RFC 9374)', '2001:30::1'],
    ['documentation (RFC 3849)', '2001:db8::1'],
    ['documentation (RFC 9637)', '3fff::1'],
    ['6to4 (RFC 3056)', '2002:a00:1::1'],
    ['segment routing (RFC 9602)', '5f00::1'],
    ['unique local (RFC 4193)', 'fd12:3456:789a::1'],
    ['unique local, fc00::/8', 'fc00::1'],
    ['link-local', 'fe80::1'],
    ['site-local (deprecated, RFC 3879)', 'fec0::1'],
    ['multicast', 'ff02::1'],
    ['space the IETF still reserves', '4000::1'],
  ])(
    'invalid_target, as for a private IPv4 address, for an IPv6 address that is not public: %s',
    async (_, target) => {
      const response = await service.post('/ip/v1', { target });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(
        postError('invalid_target', `${target} is not a public IPv6 address`),
      );
    },
  );

  it.each([
    ['only private addresses', 'intranet.sender-fixture.net'],
    ['only loopback', 'loopback.sender-fixture.net'],
  ])('invalid_target for a host name resolving to %s', async (_, target) => {
    const response = await service.post('/ip/v1', { target });
    const body = (await response.json()) as { error: string };
    expect(response.status).toBe(400);
    expect(body).toEqual(postError('invalid_target'));
    // The refusal names no internal address: the service is no oracle for internal DNS.
    expect(body.error).not.toMatch(/10\.1\.2\.3|192\.168|127\.0\.0\.1/);
  });

  it('invalid_target for a host name that does not exist (NXDOMAIN)', async () => {
    await expectError(
      await service.post('/ip/v1', { target: 'nowhere.sender-fixture.net' }),
      400,
      postError('invalid_target'),
    );
  });

  it('invalid_target for a host name whose only address is a documentation IPv6 address', async () => {
    await expectError(
      await service.post('/ip/v1', { target: 'v6only.sender-fixture.net' }),
      400,
      postError('invalid_target'),
    );
  });
});

describe('503 dns_unavailable', () => {
  it('when the resolver cannot resolve a host name target (SERVFAIL)', async () => {
    await expectError(
      await service.post('/ip/v1', { target: 'mail.broken-dns.net' }),
      503,
      postError('dns_unavailable'),
    );
  });
});

describe('404 and 405', () => {
  it.each([
    ['an unknown path under the base path', '/nope'],
    ['an unknown tool version', '/ip/v2/status'],
    ['a path below a token', '/ip/v1/AAAAAAAAAAAAAAAAAAAAAA/extra'],
  ])('404 not_found for %s', async (_, path) => {
    await expectError(await service.get(path), 404, plainError('not_found'));
  });

  it('404 not_found outside the base path', async () => {
    const response = await service.fetch(
      service.url('/').replace('/tools/ip-reputation/', '/elsewhere'),
    );
    await expectError(response, 404, plainError('not_found'));
  });

  it.each([
    ['DELETE', '/ip/v1/status', 'GET, HEAD'],
    ['POST', '/ip/v1/status', 'GET, HEAD'],
    ['PUT', '/ip/v1', 'POST'],
    ['GET', '/ip/v1', 'POST'],
    ['PATCH', '/ip/v1/AAAAAAAAAAAAAAAAAAAAAA', 'GET, HEAD'],
  ])('405 method_not_allowed for %s %s, with Allow: %s', async (method, path, allow) => {
    const response = await service.fetch(service.url(path), { method });
    expect(response.headers.get('allow')).toBe(allow);
    await expectError(response, 405, plainError('method_not_allowed'));
  });
});

describe('413 and 415 on POST /ip/v1', () => {
  it('413 body_too_large for a body over the limit', async () => {
    const body = JSON.stringify({ target: '8.8.4.4', pad: 'x'.repeat(maxBodyBytes) });
    await expectError(await service.post('/ip/v1', body), 413, postError('body_too_large'));
  });

  it('413 body_too_large for a body over the limit sent without a length (chunked)', async () => {
    const chunk = new TextEncoder().encode(`{"pad":"${'x'.repeat(maxBodyBytes)}"}`);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await service.fetch(service.url('/ip/v1'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await expectError(response, 413, postError('body_too_large'));
  });

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['form data', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['a JSON look-alike', { 'content-type': 'application/jsonp' }],
  ])('415 unsupported_media_type for %s', async (_, headers) => {
    await expectError(
      await rawPost('{"target":"8.8.4.4"}', headers),
      415,
      postError('unsupported_media_type'),
    );
  });

  it('415 unsupported_media_type without a Content-Type', async () => {
    const body = new TextEncoder().encode('{"target":"8.8.4.4"}');
    await expectError(await rawPost(body), 415, postError('unsupported_media_type'));
  });

  it.each([
    ['a charset parameter', 'application/json; charset=utf-8'],
    ['upper case', 'Application/JSON'],
    ['a structured suffix', 'application/vnd.api+json'],
  ])('accepts JSON sent with %s', async (_, contentType) => {
    const response = await rawPost('{"target":"8.8.4.4"}', { 'content-type': contentType });
    expect(response.status).toBe(200);
  });
});

describe('never a 500', () => {
  // The route validator's own media-type gate refuses these; the refusal must still be ours.
  it.each([
    ['a space before the parameters', 'application/json ; charset=utf-8'],
    ['a trailing semicolon', 'application/json;'],
    ['a parameter without a value', 'application/json; charset'],
    ['an underscore in the subtype prefix', 'application/vnd_x+json'],
    ['two media types', 'application/json, text/plain'],
  ])('answers 415 unsupported_media_type for a Content-Type with %s', async (_, contentType) => {
    await expectError(
      await rawPost('{"target":"8.8.4.4"}', { 'content-type': contentType }),
      415,
      postError('unsupported_media_type'),
    );
  });

  it.each([
    ['a deeply nested target', `{"target":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`],
    ['a prototype key', '{"__proto__":{"target":"8.8.4.4"}}'],
    ['a constructor key', '{"constructor":{"prototype":{"x":1}},"target":1}'],
    ['duplicate keys', '{"target":"8.8.4.4","target":{"x":1}}'],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
    ['an empty body', ''],
  ])('answers a 4xx JSON error for %s', async (_, body) => {
    const response = await rawPost(body, { 'content-type': 'application/json' });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(await response.json()).toMatchObject({ status: 'error', code: expect.any(String) });
  });

  it('ignores unknown fields, however deeply nested', async () => {
    const nested = `${'['.repeat(2000)}${']'.repeat(2000)}`;
    const response = await rawPost(`{"target":"8.8.4.4","x":${nested}}`, {
      'content-type': 'application/json',
    });
    expect(response.status).toBe(200);
  });

  it('accepts a JSON body that starts with a byte order mark (RFC 8259 §8.1 allows ignoring it)', async () => {
    const response = await rawPost('\ufeff{"target":"8.8.4.4"}', {
      'content-type': 'application/json',
    });
    expect(response.status).toBe(200);
  });

  it('answers a 4xx for a huge target string just under the body limit', async () => {
    const target = '1'.repeat(maxBodyBytes - 20);
    const response = await service.post('/ip/v1', { target });
    expect(response.status).toBe(400);
  });

  it('answers a 4xx for unicode garbage in every field', async () => {
    const garbage = '\u202e\u0000\ud83d\ude00\ufffd\u200d\u0301';
    const response = await service.post('/ip/v1', {
      target: garbage,
      q: garbage,
      captchaToken: garbage,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(postError('invalid_target'));
  });

  it('answers a 4xx for garbage in the path', async () => {
    const response = await service.fetch(`${service.url('/ip/v1/')}%E0%A4%A`);
    expect(response.status).toBe(404);
  });
});

describe('429 quota_exceeded', () => {
  it('answers 429 with Retry-After and the exhausted quota once the daily limit is used', async () => {
    const limited = await startTestService({
      env: { DAILY_LIMIT: '1' },
      now: new Date('2026-03-01T23:00:00Z'),
    });
    try {
      expect((await limited.post('/ip/v1', { target: '8.8.4.4' })).status).toBe(200);
      const response = await limited.post('/ip/v1', { target: '8.8.8.8' });
      expect(response.headers.get('retry-after')).toBe('3600');
      await expectError(response, 429, {
        ...postError('quota_exceeded'),
        dailyLimit: 1,
        dailyRemaining: 0,
      });
    } finally {
      await limited.close();
    }
  });
});

describe('403 captcha_required and captcha_failed', () => {
  it('refuses a check without a captcha token, and one with a rejected token', async () => {
    const provider = await startCaptchaProvider({ goodTokens: ['good'] });
    const guarded = await startTestService({
      env: {
        CAPTCHA_PROVIDER: 'turnstile',
        CAPTCHA_SITE_KEY: 'site-key',
        CAPTCHA_SECRET: 'secret',
        CAPTCHA_VERIFY_URL: provider.urlFor('turnstile'),
      },
    });
    try {
      const captchaDue = { captchaRequired: true, siteKey: 'site-key' };
      await expectError(await guarded.post('/ip/v1', { target: '8.8.4.4' }), 403, {
        ...postError('captcha_required'),
        ...captchaDue,
      });
      await expectError(
        await guarded.post('/ip/v1', { target: '8.8.4.4', 'smart-token': 'bad' }),
        403,
        { ...postError('captcha_failed'), ...captchaDue },
      );
    } finally {
      await guarded.close();
      await provider.close();
    }
  });
});

describe('503 not_configured', () => {
  it.each([
    ['ip', '/ip/v1', { target: '8.8.4.4' }],
    ['domain', '/domain/v1', { domain: 'sender-one.com' }],
    ['pool', '/pool/v1/discover', { pool: 'smtp.pool-one.net' }],
  ])(
    'reports configured: false in the %s status and refuses its POST while DNS is dead',
    async (tool, path, body) => {
      const dead = await startTestService({ deadDns: true });
      try {
        const status = await dead.get(`/${tool}/v1/status`);
        expect(status.status).toBe(200);
        expect(await status.json()).toMatchObject({ configured: false });
        await expectError(await dead.post(path, body), 503, postError('not_configured'));
        // Refused before anything was counted.
        expect(await (await dead.get(`/${tool}/v1/status`)).json()).toMatchObject({
          dailyRemaining: 50,
        });
      } finally {
        await dead.close();
      }
    },
  );
});

describe('never leaks internals', () => {
  it('logs requests without stack traces and answers no stack in any error body', async () => {
    const response = await service.post('/ip/v1', '{');
    const text = await response.text();
    expect(text).not.toMatch(/at .+\(.+:\d+:\d+\)|node_modules|\/src\//);
  });
});
