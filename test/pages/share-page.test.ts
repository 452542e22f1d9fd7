import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, basePath, startTestService } from '../support/service.js';

/**
 * The share page's absolute URLs (og:url, og:image, the embed snippets) and its caching, by where
 * the public origin comes from (docs/pages.md): PUBLIC_URL, forwarded headers from a proxy
 * TRUST_PROXY trusts, or the Host header alone. The tests reach the service from 127.0.0.1, so
 * `TRUST_PROXY=127.0.0.1` makes the test the trusted proxy.
 */

const listedIp = '192.0.3.20';
const html = { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

async function tokenOf(service: TestService): Promise<string> {
  const response = await service.post('/ip/v1', { target: listedIp });
  if (response.status !== 200) console.error(await response.clone().text());
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

function meta(page: string, property: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)"`).exec(page);
  return match?.[1];
}

interface Started {
  service: TestService;
  token: string;
}

async function start(env: Record<string, string>): Promise<Started> {
  const service = await startTestService({
    listings: { [listedIp]: { 'zen.spamhaus.org': ['127.0.0.2'] } },
    zones: [
      {
        origin: 'pool-one.net',
        records: { 'small.pool-one.net': { A: ['185.40.0.1', '185.40.0.2', '185.40.0.3'] } },
      },
    ],
    env,
  });
  return { service, token: await tokenOf(service) };
}

const started: Started[] = [];
let direct: Started;
let behindProxy: Started;
let behindForwardedProxy: Started;
let behindCloudflare: Started;
let configured: Started;
let configuredWithPrefix: Started;

beforeAll(async () => {
  [direct, behindProxy, behindForwardedProxy, behindCloudflare, configured, configuredWithPrefix] =
    await Promise.all([
      start({}),
      start({ TRUST_PROXY: '1' }),
      start({ TRUST_PROXY: '1', FORWARDED_HEADERS: 'forwarded' }),
      start({ TRUST_PROXY: 'cloudflare' }),
      start({ PUBLIC_URL: 'https://rep.example.org' }),
      start({ PUBLIC_URL: 'https://tools.example.org/reputation/', TRUST_PROXY: '127.0.0.1' }),
    ]);
  started.push(
    direct,
    behindProxy,
    behindForwardedProxy,
    behindCloudflare,
    configured,
    configuredWithPrefix,
  );
});
afterAll(() => Promise.all(started.map(({ service }) => service.close())));

async function sharePage({ service, token }: Started, headers: Record<string, string> = {}) {
  const response = await service.get(`/ip/v1/share/${token}`, { ...html, ...headers });
  expect(response.status).toBe(200);
  return { response, page: await response.text() };
}

describe('with PUBLIC_URL', () => {
  it('builds every absolute URL from it and caches the page as immutable', async () => {
    const { response, page } = await sharePage(configured);
    const base = `https://rep.example.org/tools/ip-reputation/ip/v1/share/${configured.token}`;
    expect(meta(page, 'og:url')).toBe(base);
    expect(meta(page, 'og:image')).toBe(`${base}/card?lang=en`);
    expect(meta(page, 'twitter:image')).toBe(`${base}/card?lang=en`);
    // The embed names its language, so the badge is the same wherever it is shown.
    expect(page).toContain(`[![${listedIp}](${base}/badge.svg?lang=en)](${base})`);
    expect(page).toContain(
      `&lt;a href=&quot;${base}&quot;&gt;&lt;img src=&quot;${base}/badge.svg?lang=en&quot;`,
    );
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
  });

  it('ignores forwarded headers and the Host header', async () => {
    const { page } = await sharePage(configured, {
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-Proto': 'http',
      Forwarded: 'host=evil.example;proto=http',
    });
    expect(page).not.toContain('evil.example');
    expect(meta(page, 'og:image')).toMatch(/^https:\/\/rep\.example\.org\//);
  });

  it('puts its path in front of the base path, in absolute URLs and in links between pages', async () => {
    const { page } = await sharePage(configuredWithPrefix, { 'X-Forwarded-Host': 'evil.example' });
    expect(meta(page, 'og:image')).toBe(
      `https://tools.example.org/reputation/tools/ip-reputation/ip/v1/share/${configuredWithPrefix.token}/card?lang=en`,
    );
    expect(page).toContain('href="/reputation/tools/ip-reputation/?tool=ip&amp;lang=en"');
    expect(page).toMatch(
      /<script src="\/reputation\/tools\/ip-reputation\/assets\/pages\.[0-9a-f]{10}\.js"/,
    );
  });

  it('is the OpenAPI document’s server, with the base path its paths are relative to', async () => {
    const document = (await (await configured.service.get('/openapi.json')).json()) as {
      servers: { url: string }[];
    };
    expect(document.servers).toEqual([{ url: `https://rep.example.org${basePath}` }]);
  });
});

describe('without PUBLIC_URL, behind a proxy TRUST_PROXY trusts', () => {
  it('takes scheme and host from X-Forwarded-Proto and X-Forwarded-Host, but never caches the page', async () => {
    const { response, page } = await sharePage(behindProxy, {
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'rep.example.org',
    });
    expect(meta(page, 'og:image')).toBe(
      `https://rep.example.org/tools/ip-reputation/ip/v1/share/${behindProxy.token}/card?lang=en`,
    );
    // A proxy that passes a header it does not set would otherwise have its URLs shared.
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('etag')).toBeNull();
  });

  it('ignores a client’s Forwarded header by default, which nginx passes through beside its X-Forwarded-Host', async () => {
    const { page } = await sharePage(behindProxy, {
      Forwarded: 'host=evil.example;proto=http',
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'rep.example.org',
    });
    expect(page).not.toContain('evil.example');
    expect(meta(page, 'og:url')).toBe(
      `https://rep.example.org/tools/ip-reputation/ip/v1/share/${behindProxy.token}`,
    );
  });

  it('with FORWARDED_HEADERS=forwarded, reads Forwarded (RFC 7239) only', async () => {
    const { response, page } = await sharePage(behindForwardedProxy, {
      Forwarded: 'for=198.51.100.7;proto=https;host="rep.example.org:8443"',
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-Proto': 'http',
    });
    expect(page).not.toContain('evil.example');
    expect(meta(page, 'og:url')).toBe(
      `https://rep.example.org:8443/tools/ip-reputation/ip/v1/share/${behindForwardedProxy.token}`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('with FORWARDED_HEADERS=forwarded, ignores X-Forwarded-Host when Forwarded names no host', async () => {
    const { page } = await sharePage(behindForwardedProxy, { 'X-Forwarded-Host': 'evil.example' });
    expect(page).not.toContain('evil.example');
    expect(meta(page, 'og:image')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });

  it('behind Cloudflare, takes the scheme but never a client’s X-Forwarded-Host or Forwarded host', async () => {
    const { response, page } = await sharePage(behindCloudflare, {
      'CF-Connecting-IP': '198.51.100.7',
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'evil.example',
      Forwarded: 'host=evil.example',
    });
    expect(page).not.toContain('evil.example');
    expect(meta(page, 'og:url')).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/tools\/ip-reputation\//);
    expect(page).toMatch(/<link rel="canonical" href="https:\/\/127\.0\.0\.1:\d+\//);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('reads the entry the trusted proxy wrote, not one the client sent ahead of it', async () => {
    const { page } = await sharePage(behindProxy, {
      'X-Forwarded-Proto': 'http, https',
      'X-Forwarded-Host': 'evil.example, rep.example.org',
    });
    expect(meta(page, 'og:image')).toMatch(/^https:\/\/rep\.example\.org\//);
    expect(page).not.toContain('evil.example');
  });

  it('uses a forwarded scheme with the Host header, but then never caches the page', async () => {
    const { response, page } = await sharePage(behindProxy, { 'X-Forwarded-Proto': 'https' });
    expect(meta(page, 'og:image')).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/tools\/ip-reputation\//);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('ignores a forwarded host that is not a host', async () => {
    const { response, page } = await sharePage(behindProxy, {
      'X-Forwarded-Host': 'evil.example/path?x=<script>',
    });
    expect(page).not.toContain('evil.example');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('without PUBLIC_URL or a trusted proxy', () => {
  it('ignores forwarded headers from an untrusted peer', async () => {
    const { page } = await sharePage(direct, {
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'evil.example',
      Forwarded: 'proto=https;host=evil.example',
    });
    expect(page).not.toContain('evil.example');
    expect(meta(page, 'og:image')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });

  it('never lets an absolute URL from the Host header into a cacheable answer', async () => {
    const { response } = await sharePage(direct);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('etag')).toBeNull();
  });

  it('keeps badges and cards, which hold no URL, cacheable as immutable', async () => {
    for (const artefact of ['badge.svg', 'card']) {
      const response = await direct.service.get(`/ip/v1/share/${direct.token}/${artefact}`);
      expect(response.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
    }
  });

  it('serves the OpenAPI document with a relative server: the base path', async () => {
    const document = (await (await direct.service.get('/openapi.json')).json()) as {
      servers: { url: string }[];
    };
    expect(document.servers).toEqual([{ url: basePath }]);
  });
});

describe('the page', () => {
  it('names the site, describes the card and dates the check in the reader’s language', async () => {
    const { page } = await sharePage(configured);
    expect(meta(page, 'og:site_name')).toBe('Reputation Tools');
    expect(meta(page, 'og:image:alt')).toMatch(
      /^Result card: 192\.0\.3\.20: poor, score \d+\/100; listed on 1 of \d+ lists/,
    );
    expect(page).toMatch(
      /<time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d\d [AP]M UTC<\/time>/,
    );
    expect(page).toContain('<html lang="en">');
  });

  it.each([
    ['?lang=ru', {}, false],
    ['', { 'Accept-Language': 'ru-RU,ru;q=0.9,en;q=0.8' }, true],
  ])(
    'is in Russian with %s %j (varying on Accept-Language: %s)',
    async (query, headers, varies) => {
      const response = await configured.service.get(`/ip/v1/share/${configured.token}${query}`, {
        ...html,
        ...headers,
      });
      const page = await response.text();
      expect(page).toContain('<html lang="ru">');
      expect(meta(page, 'og:locale')).toBe('ru_RU');
      expect(page).toContain('Проверить другой');
      expect(page).toMatch(/Внесён в 1 из \d+ списков/);
      expect(meta(page, 'og:description')).toMatch(
        /^192\.0\.3\.20: репутация плохая, оценка \d+\/100; внесён в 1 из \d+ списков/,
      );
      expect(page).toMatch(/\d{1,2} [а-я]+ \d{4} г\. в \d\d:\d\d UTC<\/time>/);
      expect(meta(page, 'og:image')).toMatch(/\/card\?lang=ru$/);
      expect(response.headers.get('vary')?.includes('Accept-Language')).toBe(varies);
    },
  );

  it('runs no inline script or style and says so in its Content-Security-Policy', async () => {
    const { response, page } = await sharePage(configured);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(page).not.toMatch(/<script>|<script [^>]*>[^<]|<style|\son[a-z]+=/);
  });

  it('describes a pool discover by the addresses it found', async () => {
    const service = configured.service;
    const response = await service.post('/pool/v1/discover', { pool: 'small.pool-one.net' });
    expect(response.status, await response.clone().text()).toBe(200);
    const { token } = (await response.json()) as { token: string };
    const page = await (await service.get(`/pool/v1/share/${token}`, html)).text();
    expect(meta(page, 'og:description')).toBe(
      'small.pool-one.net: 3 addresses found, none checked yet.',
    );
    expect(page).not.toContain('no addresses answered');
  });
});

describe('an unknown or expired token', () => {
  const unknown = '/ip/v1/share/AAAAAAAAAAAAAAAAAAAAAA';

  it('answers a browser with an HTML 404 page in its language', async () => {
    const response = await direct.service.get(unknown, {
      ...html,
      'Accept-Language': 'ru',
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await response.text();
    expect(page).toContain('<h1>Результат не найден</h1>');
    expect(page).toContain('хранятся 30 дней');
  });

  it.each([
    ['application/json', 'application/json'],
    ['any type (curl)', '*/*'],
    ['nothing', undefined],
  ])('answers an API client asking for %s with the JSON 404', async (_name, accept) => {
    const response = await direct.service.get(unknown, accept ? { Accept: accept } : {});
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      status: 'error',
      code: 'not_found',
      error: 'no result under this token (unknown or expired)',
    });
  });

  it('answers a browser asking for an unknown path with an HTML 404 too', async () => {
    const response = await direct.service.get('/no/such/page', html);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('There is no page at this address.');
  });
});
