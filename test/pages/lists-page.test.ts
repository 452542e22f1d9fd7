import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, startTestService } from '../support/service.js';
import type { ListsAnswer } from '../support/responses.js';

/** GET {BASE_PATH}/lists: an HTML page for a browser, JSON for an API client (docs/pages.md). */

const html = { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

describe('GET {BASE_PATH}/lists', () => {
  it.each([
    ['en', 'The blocklists this service asks', 'Spam sources and operations', 'active'],
    [
      'ru',
      'Списки блокировки, которые опрашивает сервис',
      'Источники и организаторы спама',
      'активен',
    ],
  ])(
    'answers a browser in %s with each list, its state, what it lists, its policy and links',
    async (lang, title, zenLists, active) => {
      const response = await service.get(`/lists?lang=${lang}`, html);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('vary')).toMatch(/^Accept, Accept-Language/);
      const page = await response.text();
      expect(page).toContain(`<html lang="${lang}"`);
      expect(page).toContain(title);
      expect(page).toContain('Spamhaus ZEN');
      expect(page).toContain(zenLists);
      expect(page).toContain(`<span class="state-active">${active}</span>`);
      expect(page).toContain('href="https://check.spamhaus.org/"');
    },
  );

  it.each([
    ['no Accept', {}],
    ['application/json', { Accept: 'application/json' }],
  ])('answers an API client (%s) the JSON, saying it varies on Accept', async (_name, headers) => {
    const response = await service.get('/lists', headers);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('vary')).toMatch(/Accept/);
    const body = (await response.json()) as ListsAnswer;
    expect(body.configured).toBe(true);
    expect(body.lists.length).toBeGreaterThan(0);
  });

  it('opens on a summary: how many lists do what, and whether the resolver is proven', async () => {
    const page = await (await service.get('/lists?lang=en', html)).text();
    const summary = /<section\s+class="panel lists-summary"[\s\S]*?<\/section>/.exec(page)?.[0];
    expect(summary).toMatch(/<strong>\d+ lists<\/strong>:\s*\d+ answering, \d+ need a key\./);
    expect(summary).toContain('The resolver is proven to answer honestly');
    // Times as the other pages write them; the JSON keeps ISO 8601.
    expect(page).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    expect(page).toMatch(/\d{4} at \d+:\d\d [AP]M UTC/);
  });

  it('says in its summary, while no list can be proven, that checks cannot run and why', async () => {
    const dead = await startTestService({ deadDns: true });
    try {
      const page = await (await dead.get('/lists?lang=en', html)).text();
      const summary = /<section\s+class="panel lists-summary notice"[\s\S]*?<\/section>/.exec(
        page,
      )?.[0];
      expect(summary).toContain('The blocklist checks are not ready');
      expect(summary).toMatch(/The DNS resolver \(.+\) does not answer/);
    } finally {
      await dead.close();
    }
  });

  it('is linked from the check page in its language', async () => {
    const page = await (await service.get('/?lang=ru', html)).text();
    expect(page).toContain('href="/tools/ip-reputation/lists?lang=ru"');
  });

  it('documents both representations in the OpenAPI document', async () => {
    const document = (await (await service.get('/openapi.json')).json()) as {
      paths: Record<string, { get: { responses: Record<string, { content: object }> } }>;
    };
    const lists = Object.entries(document.paths).find(([path]) => path.endsWith('/lists'));
    expect(Object.keys(lists?.[1].get.responses['200']?.content ?? {})).toEqual([
      'application/json',
      'text/html',
    ]);
  });
});
