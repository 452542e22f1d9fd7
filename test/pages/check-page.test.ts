import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchIntervals } from '../../src/pages/check-page.js';
import { rawRequest } from '../support/raw-http.js';
import { type TestService, startTestService } from '../support/service.js';

/**
 * The check page at BASE_PATH, as served (its behaviour in a browser is browser.test.ts): HTML for
 * browsers, the way on for API clients, its assets, its language and its Content-Security-Policy.
 */

const html = { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

function dataOf(page: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(page);
  return JSON.parse(match?.[1] ?? 'null') as Record<string, unknown>;
}

describe('GET {BASE_PATH}/', () => {
  it.each(['/', ''])(
    'answers a browser at "%s" with the form for the three tools',
    async (path) => {
      const response = await service.get(path, html);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('vary')).toMatch(/^Accept, Accept-Language(, Accept-Encoding)?$/);
      const page = await response.text();
      expect(page).toContain('<form id="check-form"');
      for (const tool of ['ip', 'domain', 'pool'])
        expect(page).toContain(`name="tool" value="${tool}"`);
      expect(dataOf(page)).toMatchObject({
        base: '/tools/ip-reputation',
        poolMaxIps: 32,
        captcha: null,
      });
    },
  );

  it.each([
    ['application/json', { Accept: 'application/json' }],
    ['*/*', { Accept: '*/*' }],
    ['no Accept', {}],
  ])(
    'answers an API client (%s) the JSON index of the tools, saying the answer varies on Accept',
    async (_name, headers) => {
      const response = await service.get('/', headers);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('vary')).toMatch(/Accept/);
      const index = (await response.json()) as { tools: { tool: string }[] };
      expect(index.tools.map((tool) => tool.tool)).toEqual([
        'ip',
        'domain',
        'pool',
        'mail',
        'watch',
        'reports',
      ]);
    },
  );

  it('selects the tool and fills the field a link names, escaped', async () => {
    const page = await (await service.get('/?tool=domain&target=%22%3E%3Cscript%3Ex', html)).text();
    expect(page).toMatch(/name="tool" value="domain"\s+checked/);
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;x"');
    expect(page).toContain('Domain name');
  });

  it('speaks Russian by ?lang= or Accept-Language, and lists its messages for the script', async () => {
    for (const [query, headers] of [
      ['?lang=ru', html],
      ['', { ...html, 'Accept-Language': 'ru' }],
    ] as const) {
      const page = await (await service.get(`/${query}`, headers)).text();
      expect(page).toContain('<html lang="ru">');
      expect(page).toContain('Проверка IP-адреса, домена или DNS-пула');
      const data = dataOf(page) as { messages: Record<string, unknown> };
      expect(data.messages['check.remaining']).toBe('Осталось проверок на сегодня: {n}');
      expect(data.messages['error.quota_exceeded']).toMatch(/00:00 UTC/);
    }
  });

  it('gives the script words of its own for every error the page’s forms can be answered', async () => {
    const document = (await (await service.get('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId?: string; responses: object }>>;
      components: { schemas: Record<string, object> };
    };
    // The forms' POSTs: every tool's checks and a watch's creation; each error schema's codes.
    const codes = new Set(
      Object.values(document.paths)
        .flatMap((methods) => (methods.post ? [methods.post] : []))
        .filter(({ operationId }) => /^(check|discover)|^createWatch$/.test(operationId ?? ''))
        .flatMap(({ responses }) => [
          ...JSON.stringify(responses).matchAll(/"#\/components\/schemas\/([^"]+)"/g),
        ])
        .map(([, name]) => JSON.stringify(document.components.schemas[name!]))
        .flatMap((schema) => [...schema.matchAll(/"code":\{[^}]*"enum":\[([^\]]*)\]/g)])
        .flatMap(([, list]) => JSON.parse(`[${list}]`) as string[]),
    );
    expect(codes).toContain('email_limit');
    for (const lang of ['en', 'ru']) {
      const page = await (await service.get(`/?lang=${lang}`, html)).text();
      const { messages } = dataOf(page) as { messages: Record<string, string> };
      const silent = [...codes].filter((code) => messages[`error.${code}`] === undefined);
      expect(silent, lang).toEqual([]);
    }
  });

  it('reads the first of a repeated ?lang=, and ignores one that names no language', async () => {
    const first = await (await service.get('/?lang=ru&lang=en', html)).text();
    expect(first).toContain('<html lang="ru">');
    const unknown = await (
      await service.get('/?lang=de', { ...html, 'Accept-Language': 'ru' })
    ).text();
    expect(unknown).toContain('<html lang="ru">');
  });

  it.each([
    ['en', 'Watch this address', 'Webhook URL (optional)', 'Start watching'],
    ['ru', 'Следить за этим адресом', 'Адрес вебхука (необязательно)', 'Начать наблюдение'],
  ])(
    'offers a %s reader, hidden until a result is shown, a form to watch the target checked',
    async (lang, offer, webhook, start) => {
      const page = await (await service.get(`/?lang=${lang}`, html)).text();
      expect(page).toContain('<section id="watch" class="panel watch" hidden>');
      expect(page).toMatch(new RegExp(`<h2 id="watch-title">${offer}</h2>`));
      expect(page).toMatch(/<form id="watch-form" novalidate>/);
      expect(page).toContain(`<label class="field-label" for="watch-webhook">${webhook}</label>`);
      expect(page).toMatch(/<input\s+type="url"\s+id="watch-webhook"\s+name="webhook_url"/);
      expect(page).toMatch(new RegExp(`<button type="submit" id="watch-submit">${start}</button>`));
      expect(page).toContain('<p id="watch-error" class="error" role="alert" hidden></p>');
      // The script's texts for the answer: the domain's and the mail's offers, the keys and the
      // once-only note.
      const { messages } = dataOf(page) as { messages: Record<string, unknown> };
      for (const key of [
        'watch.offer.domain',
        'watch.offer.mail',
        'watch.created',
        'watch.manageKey',
        'watch.secret',
        'watch.shownOnce',
        'error.invalid_webhook',
        'error.watch_limit',
        'error.watch_capacity',
      ]) {
        expect(messages[key], key).toBeDefined();
      }
    },
  );

  it('has no inline script, style or event handler, and a CSP that allows none', async () => {
    const response = await service.get('/', html);
    const page = await response.text();
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    const scripts = [...page.matchAll(/<script([^>]*)>/g)].map((match) => match[1]);
    expect(scripts).toEqual([
      expect.stringMatching(
        /^ src="\/tools\/ip-reputation\/assets\/pages\.[0-9a-f]{10}\.js" defer$/,
      ),
      ' type="application/json" id="page-data"',
    ]);
    expect(page).not.toMatch(/<style|\sstyle=|\son[a-z]+=/);
  });

  it('serves its script and stylesheet under hashed names, cached for a year', async () => {
    const page = await (await service.get('/', html)).text();
    const files = [...page.matchAll(/\/assets\/(pages\.[0-9a-f]{10}\.(?:js|css))"/g)].map(
      (match) => match[1],
    );
    expect(files).toHaveLength(2);
    for (const file of files) {
      const response = await service.get(`/assets/${file}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(
        file!.endsWith('.js') ? /^text\/javascript/ : /^text\/css/,
      );
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await response.text()).length).toBeGreaterThan(1000);
    }
    const etag = (await service.get(`/assets/${files[0]}`)).headers.get('etag')!;
    for (const tag of [etag, `W/${etag.replace(/^W\//, '')}`]) {
      expect((await service.get(`/assets/${files[0]}`, { 'If-None-Match': tag })).status).toBe(304);
    }
    expect((await service.get('/assets/pages.0000000000.js')).status).toBe(404);
  });
});

describe('with a captcha', () => {
  let captchaService: TestService;
  beforeAll(async () => {
    captchaService = await startTestService({
      env: {
        CAPTCHA_PROVIDER: 'turnstile',
        CAPTCHA_SITE_KEY: 'site-key',
        CAPTCHA_SECRET: 'secret',
        CAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/siteverify',
      },
    });
  });
  afterAll(() => captchaService.close());

  it('names the provider widget for the script and allows its origin in the CSP', async () => {
    const response = await captchaService.get('/', html);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self' https://challenges.cloudflare.com");
    expect(policy).toContain('frame-src https://challenges.cloudflare.com');
    expect(dataOf(await response.text()).captcha).toEqual({
      script: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
      global: 'turnstile',
    });
  });
});

describe('the HTML 404', () => {
  it.each(['//evil.example/x', '/tools/ip-reputation//evil.example/x'])(
    'of the raw path %s links only to routes of the site',
    async (path) => {
      const origin = new URL(service.url('/')).origin;
      const response = await rawRequest(`${origin}${path}`, { headers: html });
      expect(response.status).toBe(404);
      const page = response.body.toString('utf8');
      expect(page).not.toContain('evil.example');
      expect(page).toContain('href="/tools/ip-reputation/?lang=ru"');
      // Every link is a route of the site (or the empty favicon, a data: URL).
      for (const [, href] of page.matchAll(/href="([^"]*)"/g)) {
        expect(href).toMatch(/^(\/tools\/ip-reputation\/|data:,$)/);
      }
    },
  );
});

describe('GET {BASE_PATH}/ while the service is not configured', () => {
  let dead: TestService;
  beforeAll(async () => {
    dead = await startTestService({ deadDns: true });
  });
  afterAll(() => dead.close());

  it.each([
    [
      'en',
      'The blocklist checks are not ready',
      'If you run this service: set DNS_SERVERS to a DNS resolver that reaches the blocklists',
      'To try it without one, npm run demo serves it over a bundled DNS world, offline.',
    ],
    [
      'ru',
      'Проверки по спискам блокировки не готовы',
      'Если это ваш сервис: укажите в DNS_SERVERS DNS-резолвер',
      'Чтобы попробовать без него, npm run demo запускает сервис',
    ],
  ])(
    'tells a %s reader the list checks are not ready and what the operator can do, and offers the mail check alone',
    async (lang, notReady, operator, offline) => {
      const page = await (await dead.get(`/?lang=${lang}`, html)).text();
      expect(page).toContain(notReady);
      expect(page).toContain(operator);
      expect(page).toContain(offline);
      expect(page).not.toMatch(/come back later|Загляните позже/);
      // The mail tool needs no list: the form offers it, and it alone; no watch is offered.
      expect(page).toContain('<form id="check-form"');
      expect(page).toContain('name="tool" value="mail"');
      for (const tool of ['ip', 'domain', 'pool'])
        expect(page).not.toContain(`name="tool" value="${tool}"`);
      expect(dataOf(page)).toMatchObject({
        watching: false,
        tools: { mail: expect.any(Object) },
        // The script shows no operator detail beside a 503 the reader might still meet.
        operatorCodes: expect.arrayContaining(['not_configured']),
      });
      expect(Object.keys(dataOf(page).tools as object)).toEqual(['mail']);
      // The resolver's own reason (its addresses, its answers) stays in the logs and the JSON.
      expect(page).not.toContain('NXDOMAIN');
    },
  );

  it('chooses the mail tool when a link names a tool that cannot check now', async () => {
    const page = await (await dead.get('/?tool=ip&target=8.8.8.8', html)).text();
    expect(page).toMatch(/name="tool" value="mail"\s+checked/);
  });

  it('keeps the operator reason in the status JSON and GET /lists', async () => {
    const status = (await (await dead.get('/ip/v1/status')).json()) as { reason?: string };
    expect(status.reason).toMatch(/DNS_SERVERS/);
    const lists = (await (await dead.get('/lists')).json()) as { reason?: string };
    expect(lists.reason).toBe(status.reason);
  });
});

describe('the watch form’s intervals', () => {
  it('offers the usual ones within the service’s bounds, with its minimum and default', () => {
    expect(
      watchIntervals({ minIntervalS: 900, intervalS: 3600, maxIntervalS: 604_800, email: false }),
    ).toEqual([900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 604_800]);
    // A demo's short minimum and an unusual default are offered as they are.
    expect(
      watchIntervals({ minIntervalS: 10, intervalS: 5400, maxIntervalS: 604_800, email: false }),
    ).toEqual([10, 300, 600, 900, 1800, 3600, 5400, 7200, 10_800, 21_600, 43_200, 86_400, 604_800]);
  });

  it('renders them in words, the default chosen, and no e-mail field by default', async () => {
    const page = await (await service.get('/?lang=ru', html)).text();
    expect(page).toMatch(/<option value="3600" selected>\s*каждый час\s*<\/option>/);
    expect(page).toMatch(/<option value="900" >\s*каждые 15 минут\s*<\/option>/);
    expect(page).not.toContain('id="watch-email"');
    expect(dataOf(page).watchIntervals).toMatchObject({ '3600': 'каждый час' });
  });
});
