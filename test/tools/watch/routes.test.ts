import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStrictSvg } from '../../share/svg-structure.js';
import { pngHeader } from '../../support/png.js';
import type { PublicWatch, QuotaStatus, UpdatedWatch } from '../../support/responses.js';
import {
  expectError,
  postError,
  type TestService,
  startTestService,
} from '../../support/service.js';
import { type CreatedWatch, createWatch, send } from './support.js';

/**
 * The watch routes over real HTTP on the Node server (docs/watches.md): creation and its quota,
 * the public view, the manage key's rules, the live badge, card and share page, the caps.
 */

const listedIp = '8.8.100.7';
const cleanIp = '8.8.100.9';
const domain = 'watched-fixture.net';
const hook = 'https://hooks.example.com/reputation/secret-path-4711';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    listings: { [listedIp]: { 'zen.spamhaus.org': ['127.0.0.2'] } },
    zones: [{ origin: domain, records: { [domain]: { A: [cleanIp], TXT: ['v=spf1 a -all'] } } }],
    env: { WATCH_MIN_INTERVAL_S: '60', WATCH_INTERVAL_S: '3600', WATCH_PER_CALLER: '50' },
  });
});
afterAll(() => service.close());

async function remaining(tool: 'ip' | 'domain'): Promise<number> {
  const status = (await (await service.get(`/${tool}/v1/status`)).json()) as QuotaStatus;
  return status.dailyRemaining;
}

describe('POST /watch/v1', () => {
  it('answers 201 with the watch, its manage key and secret once, its links and the quota', async () => {
    const before = await remaining('ip');
    const domainBefore = await remaining('domain');
    const watch = await createWatch(service, { target: listedIp, webhook_url: hook });
    expect(watch).toMatchObject({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      target: listedIp,
      kind: 'ip',
      interval_s: 3600,
      manage_key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      // Standard Webhooks: whsec_ and the base64 of 32 random bytes.
      webhook_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      badge_url: service.url(`/watch/v1/${watch.id}/badge.svg`),
      page_url: service.url(`/watch/v1/${watch.id}/share`),
      expires_at: expect.any(String),
      dailyRemaining: before - 1,
      status: { verdict: expect.any(String), score: expect.any(Number) },
    });
    expect((watch.status as { listed_on: { zone: string }[] }).listed_on).toEqual([
      expect.objectContaining({ zone: 'zen.spamhaus.org' }),
    ]);
    // The first check counts on the IP tool's quota, not the domain tool's.
    expect(await remaining('ip')).toBe(before - 1);
    expect(await remaining('domain')).toBe(domainBefore);
  });

  it('counts a domain watch on the domain tool’s quota', async () => {
    const ipBefore = await remaining('ip');
    const before = await remaining('domain');
    const watch = await createWatch(service, { target: domain, kind: 'domain' });
    expect(watch).toMatchObject({ kind: 'domain', target: domain, dailyRemaining: before - 1 });
    expect(watch.webhook_secret).toBeUndefined();
    expect(await remaining('domain')).toBe(before - 1);
    expect(await remaining('ip')).toBe(ipBefore);
  });

  it('refuses an interval below WATCH_MIN_INTERVAL_S with 400, and charges nothing', async () => {
    const before = await remaining('ip');
    const response = await service.post('/watch/v1', { target: cleanIp, interval_s: 59 });
    await expectError(response, 400, postError('invalid_request'));
    expect(await remaining('ip')).toBe(before);
  });

  it.each([
    ['a private network', 'http://10.1.2.3/hook'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data'],
    ['IPv6 loopback', 'http://[::1]:8080/hook'],
    ['a file URL', 'file:///etc/passwd'],
    ['a special-use name with trailing dots', 'http://localhost../'],
    ['port 22', 'http://8.8.8.8:22/'],
    ['port 0', 'https://hooks.example.com:0/'],
    ['a system port, 1023', 'http://8.8.8.8:1023/'],
    [
      'a URL 2,000 characters long that is stored 18 KB long',
      `https://hooks.example.com/${'€'.repeat(2000)}`,
    ],
  ])('refuses a webhook to %s with 400 invalid_webhook', async (_, url) => {
    const before = await remaining('ip');
    const response = await service.post('/watch/v1', { target: cleanIp, webhook_url: url });
    await expectError(response, 400, postError('invalid_webhook'));
    expect(await remaining('ip')).toBe(before);
  });

  it('refuses a target that is not an address or name with 400 invalid_target', async () => {
    const response = await service.post('/watch/v1', { target: '10.0.0.1' });
    await expectError(response, 400, postError('invalid_target'));
  });

  it('refuses an address as a domain watch', async () => {
    const response = await service.post('/watch/v1', { target: cleanIp, kind: 'domain' });
    await expectError(response, 400, postError('invalid_target'));
  });

  it('answers the body rules of every POST: 415, invalid_json, 413', async () => {
    const asText = await service.post('/watch/v1', 'target=1.2.3.4', {
      'content-type': 'text/plain',
    });
    await expectError(asText, 415, postError('unsupported_media_type'));
    const broken = await service.post('/watch/v1', '{"target":');
    await expectError(broken, 400, postError('invalid_json'));
    const large = await service.post('/watch/v1', { target: cleanIp, pad: 'x'.repeat(20_000) });
    await expectError(large, 413, postError('body_too_large'));
  });
});

describe('GET /watch/v1/{id}', () => {
  let watch: CreatedWatch;
  beforeAll(async () => {
    watch = await createWatch(service, { target: listedIp, webhook_url: hook });
  });

  it('shows the status and history, never the manage key, the secret or the URL’s path', async () => {
    const response = await service.get(`/watch/v1/${watch.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const text = await response.text();
    expect(text).not.toContain(watch.manage_key);
    expect(text).not.toContain(watch.webhook_secret!);
    expect(text).not.toContain('secret-path-4711');
    const view = JSON.parse(text) as PublicWatch;
    expect(view).toMatchObject({
      id: watch.id,
      target: listedIp,
      kind: 'ip',
      interval_s: 3600,
      checked_at: expect.any(String),
      next_check_at: expect.any(String),
      expires_at: watch.expires_at,
      history: [],
      webhook: { origin: 'https://hooks.example.com', last_delivery: null, paused: false },
    });
    const lists = view.status?.lists ?? [];
    expect(lists.find((list) => list.zone === 'zen.spamhaus.org')?.status).toBe('listed');
  });

  it('answers 304 to its own ETag', async () => {
    const first = await service.get(`/watch/v1/${watch.id}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^(W\/)?"/);
    const again = await service.get(`/watch/v1/${watch.id}`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
  });

  it('answers a trailing slash as the route itself', async () => {
    for (const tail of ['', '/badge.svg?lang=en', '/share?lang=en']) {
      const [path, query = ''] = `/watch/v1/${watch.id}${tail}`.split('?');
      const plain = await service.get(`${path}${query && `?${query}`}`);
      const slashed = await service.get(`${path}/${query && `?${query}`}`);
      expect(slashed.status, tail).toBe(200);
      expect(await slashed.text(), tail).toBe(await plain.text());
    }
  });

  it('answers 404 for an unknown id', async () => {
    const response = await service.get('/watch/v1/AAAAAAAAAAAAAAAAAAAAAA');
    await expectError(response, 404, {
      status: 'error',
      code: 'not_found',
      error: expect.any(String),
    });
  });
});

describe('the manage key', () => {
  let watch: CreatedWatch;
  beforeAll(async () => {
    watch = await createWatch(service, { target: cleanIp, webhook_url: hook });
  });
  const path = () => `/watch/v1/${watch.id}`;
  const patch = { interval_s: 120 };

  it.each([
    ['PATCH', '', patch],
    ['POST', '/test', undefined],
    ['DELETE', '', undefined],
  ] as const)(
    'is required by %s: 401 with WWW-Authenticate: Bearer',
    async (method, tail, body) => {
      const response = await send(service, method, `${path()}${tail}`, { body });
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      await expectError(response, 401, {
        status: 'error',
        code: 'manage_key_required',
        error: expect.any(String),
      });
    },
  );

  it('is not taken from another scheme', async () => {
    const response = await send(service, 'PATCH', path(), {
      body: patch,
      headers: { authorization: `Basic ${btoa(`x:${watch.manage_key}`)}` },
    });
    expect(response.status).toBe(401);
  });

  it.each([
    ['PATCH', '', patch],
    ['POST', '/test', undefined],
    ['DELETE', '', undefined],
  ] as const)('refuses a wrong key on %s with 403', async (method, tail, body) => {
    const wrong = `${watch.manage_key.slice(0, -1)}${watch.manage_key.endsWith('A') ? 'B' : 'A'}`;
    const response = await send(service, method, `${path()}${tail}`, { body, key: wrong });
    await expectError(response, 403, {
      status: 'error',
      code: 'manage_key_wrong',
      error: expect.any(String),
    });
  });

  it('answers 404 for an unknown watch, with any key', async () => {
    const response = await send(service, 'PATCH', '/watch/v1/AAAAAAAAAAAAAAAAAAAAAA', {
      body: patch,
      key: watch.manage_key,
    });
    expect(response.status).toBe(404);
  });

  it('PATCH changes the interval and answers the watch, without a secret for the same URL', async () => {
    const response = await send(service, 'PATCH', path(), {
      body: { interval_s: 120, webhook_url: hook },
      key: watch.manage_key,
    });
    expect(response.status).toBe(200);
    const updated = (await response.json()) as Record<string, unknown>;
    expect(updated).toMatchObject({ id: watch.id, interval_s: 120 });
    expect(updated.webhook_secret).toBeUndefined();
    expect(JSON.stringify(updated)).not.toContain(watch.manage_key);
  });

  it('PATCH gives a new URL a new secret, shown once, and null removes the webhook', async () => {
    const moved = await send(service, 'PATCH', path(), {
      body: { webhook_url: 'https://other.example.net/hook' },
      key: watch.manage_key,
    });
    const body = (await moved.json()) as UpdatedWatch;
    expect(body.webhook_secret).toMatch(/^whsec_/);
    expect(body.webhook_secret).not.toBe(watch.webhook_secret);
    expect(body.webhook?.origin).toBe('https://other.example.net');
    const removed = await send(service, 'PATCH', path(), {
      body: { webhook_url: null },
      key: watch.manage_key,
    });
    expect(((await removed.json()) as UpdatedWatch).webhook).toBeNull();
  });

  it('PATCH refuses a non-public webhook with 400 invalid_webhook', async () => {
    const response = await send(service, 'PATCH', path(), {
      body: { webhook_url: 'http://192.168.1.1/' },
      key: watch.manage_key,
    });
    await expectError(response, 400, {
      status: 'error',
      code: 'invalid_webhook',
      error: expect.any(String),
    });
  });

  it('the test event answers 202 with a webhook, 400 without one', async () => {
    const without = await send(service, 'POST', `${path()}/test`, { key: watch.manage_key });
    expect(without.status).toBe(400);
    await send(service, 'PATCH', path(), { body: { webhook_url: hook }, key: watch.manage_key });
    const queued = await send(service, 'POST', `${path()}/test`, { key: watch.manage_key });
    expect(queued.status).toBe(202);
    expect(await queued.json()).toEqual({ queued: 'watch.test' });
  });

  it('DELETE answers 204, then the watch is gone for every route', async () => {
    const deleted = await send(service, 'DELETE', path(), { key: watch.manage_key });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect((await service.get(path())).status).toBe(404);
    const again = await send(service, 'DELETE', path(), { key: watch.manage_key });
    expect(again.status).toBe(404);
    const badge = await service.get(`${path()}/badge.svg`);
    expect(badge.status).toBe(404);
  });
});

describe('the live badge, card and share page', () => {
  let watch: CreatedWatch;
  beforeAll(async () => {
    watch = await createWatch(service, { target: listedIp, interval_s: 120 });
  });

  it('draws the badge of the current state, kept no longer than the interval', async () => {
    const response = await service.get(`/watch/v1/${watch.id}/badge.svg?lang=en`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=120');
    expect(response.headers.get('etag')).toMatch(/^(W\/)?"en-/);
    const svg = await response.text();
    parseStrictSvg(svg);
    expect(svg).toContain(`watch ${listedIp}`);
    expect(svg).toMatch(/listed on 1 of \d+/);
  });

  it('draws the badge in Russian', async () => {
    const svg = await (await service.get(`/watch/v1/${watch.id}/badge.svg?lang=ru`)).text();
    expect(svg).toContain(`наблюдение ${listedIp}`);
  });

  it('answers an unknown id with the missing badge, 404 with an SVG body', async () => {
    const response = await service.get('/watch/v1/AAAAAAAAAAAAAAAAAAAAAA/badge.svg');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await response.text()).toContain('not found');
  });

  it('draws the live card as a 1200x630 PNG', async () => {
    const response = await service.get(`/watch/v1/${watch.id}/card`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=120');
    expect(pngHeader(new Uint8Array(await response.arrayBuffer()))).toMatchObject({
      width: 1200,
      height: 630,
    });
  });

  it('shows the share page in English and Russian, with the timeline', async () => {
    const en = await service.get(`/watch/v1/${watch.id}/share?lang=en`, { accept: 'text/html' });
    expect(en.status).toBe(200);
    const page = await en.text();
    expect(page).toContain('Changes');
    expect(page).toContain('No change since the watch began.');
    expect(page).toContain(`/watch/v1/${watch.id}/badge.svg?lang=en`);
    const ru = await (
      await service.get(`/watch/v1/${watch.id}/share?lang=ru`, { accept: 'text/html' })
    ).text();
    expect(ru).toContain('Изменения');
  });
});

describe('OpenAPI', () => {
  it('documents every watch route, the manage key scheme and the events under webhooks', async () => {
    const document = (await (await service.get('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
      webhooks: Record<string, { post: { parameters: { name: string }[] } }>;
      components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
    };
    expect(Object.keys(document.paths['/watch/v1']!)).toEqual(['post']);
    expect(Object.keys(document.paths['/watch/v1/{id}']!).sort()).toEqual([
      'delete',
      'get',
      'head',
      'patch',
    ]);
    for (const tail of ['/test', '/badge.svg', '/card', '/share']) {
      expect(document.paths[`/watch/v1/{id}${tail}`]).toBeDefined();
    }
    expect(document.paths['/watch/v1/{id}']!.patch!.security).toEqual([{ manageKey: [] }]);
    expect(document.components.securitySchemes.manageKey).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    // The reports inbox's auto-watch announces through the same deliveries (docs/reports.md).
    expect(Object.keys(document.webhooks).sort()).toEqual([
      'reports.source_failing',
      'watch.changed',
      'watch.delisted',
      'watch.listed',
      'watch.test',
    ]);
    expect(document.webhooks['watch.listed']!.post.parameters.map((p) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
  });
});

describe('an ended watch', () => {
  it('has a badge that says it ended in both languages, and no view, card or page', async () => {
    const watch = await createWatch(service, { target: cleanIp });
    service.setNow(new Date(Date.parse(watch.expires_at) + 1000));
    try {
      const en = await service.get(`/watch/v1/${watch.id}/badge.svg?lang=en`);
      expect(en.status).toBe(200);
      expect(await en.text()).toContain('watch ended');
      const ru = await service.get(`/watch/v1/${watch.id}/badge.svg?lang=ru`);
      expect(await ru.text()).toContain('наблюдение завершено');
      expect((await service.get(`/watch/v1/${watch.id}`)).status).toBe(404);
      expect((await service.get(`/watch/v1/${watch.id}/card`)).status).toBe(404);
      expect((await service.get(`/watch/v1/${watch.id}/share`)).status).toBe(404);
      const patched = await send(service, 'PATCH', `/watch/v1/${watch.id}`, {
        body: { interval_s: 120 },
        key: watch.manage_key,
      });
      expect(patched.status).toBe(404);
    } finally {
      service.setNow(new Date());
    }
  });
});
