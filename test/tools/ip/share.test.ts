import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translator } from '../../../src/i18n/index.js';
import { bundledZoneList } from '../../../src/reputation/lists/zones.js';
import { badgeStyles } from '../../../src/share/badge.js';
import { resultTexts, russianMeanings } from '../../../src/share/result-texts.js';
import { summariseIp } from '../../../src/tools/ip/summary.js';
import { keylessCounts } from '../../../fixtures/keyless-lists.js';
import { parseStrictSvg } from '../../share/svg-structure.js';
import { pngHeader } from '../../support/png.js';
import { type TestService, startTestService } from '../../support/service.js';
import { fetchCard } from '../common/artefacts.js';

/**
 * The IP tool's share routes through HTTP: GET /ip/v1/share/{token}, its badge.svg and card, in
 * English and Russian (the domain's: domain/share.test.ts; the pool's: pool/share.test.ts), on
 * the Node server and inside workerd on the Worker. Whether a card's pixels are drawn at all is
 * measured on Node (test/node/cards/card-render.test.ts); here its PNG header and weight. A flood
 * of cards: card-flood.test.ts.
 */

const listedIp = '192.0.3.20';
/** A public IPv6 address as long as a canonical one gets (39 characters), of wide glyphs. */
const longIpv6 = '2a0d:b8d9:8d9b:b8d9:d9b8:9bd8:8db9:b9d8';

let service: TestService;
/** The lists the service asks about an IPv6 address, and those of its IPv4 lists that do not cover IPv6. */
let ipv6Lists: number;
let notCovering: number;
const tokens: Record<string, string> = {};

async function tokenOf(path: string, body: object): Promise<string> {
  const response = await service.post(path, body);
  if (response.status !== 200)
    throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

beforeAll(async () => {
  const counts = await keylessCounts();
  ipv6Lists = counts.ipv6;
  notCovering = counts.ipv4 - counts.ipv6;
  service = await startTestService({
    listings: {
      [listedIp]: { 'zen.spamhaus.org': ['127.0.0.2'], 'bl.spamcop.net': ['127.0.0.2'] },
    },
  });
  tokens.ip = await tokenOf('/ip/v1', { target: listedIp });
  tokens.ipv6 = await tokenOf('/ip/v1', { target: longIpv6.toUpperCase() });
});
afterAll(() => service.close());

describe('the longest canonical IPv6 address', () => {
  it('is whole on the badge', async () => {
    const svg = await (await service.get(`/ip/v1/share/${tokens.ipv6}/badge.svg`)).text();
    expect(parseStrictSvg(svg).attributes['aria-label']).toMatch(
      new RegExp(`^IP ${longIpv6}: clean on ${ipv6Lists} lists`),
    );
  });

  it('is drawn on a 1200x630 card, the card the tool summary gives', async () => {
    const response = await service.get(`/ip/v1/share/${tokens.ipv6}/card`);
    expect(response.status).toBe(200);
    const card = new Uint8Array(await response.arrayBuffer());
    expect(pngHeader(card)).toMatchObject({ width: 1200, height: 630 });
    const stored = (await (await service.get(`/ip/v1/${tokens.ipv6}`)).json()) as Record<
      string,
      unknown
    >;
    expect(stored).toMatchObject({ kind: 'ipv6', target: longIpv6, ip: longIpv6 });
  });

  it('is whole in the page heading, which may wrap it on a narrow screen', async () => {
    const page = await (await service.get(`/ip/v1/share/${tokens.ipv6}`)).text();
    expect(page).toContain(`<h1>IP address ${longIpv6}</h1>`);
    const stylesheet = /<link rel="stylesheet" href="[^"]*(\/assets\/[^"]+)"/.exec(page)?.[1];
    const style = await (await service.get(stylesheet!)).text();
    expect(style).toMatch(/\nh1 \{[^}]*overflow-wrap: anywhere;/);
    expect(page).toContain(
      `not listed on any of ${ipv6Lists} lists; ${notCovering} do not cover IPv6`,
    );
  });

  it('is shown with the lists that do not cover IPv6 folded apart, in both languages', async () => {
    const english = await (await service.get(`/ip/v1/share/${tokens.ipv6}?lang=en`)).text();
    expect(english).toContain(`<summary>does not cover IPv6: ${notCovering}</summary>`);
    const russian = await (await service.get(`/ip/v1/share/${tokens.ipv6}?lang=ru`)).text();
    expect(russian).toMatch(
      new RegExp(
        `не внесён ни в один из ${ipv6Lists} списк[а-я]*; ${notCovering} не поддержива[а-я]+ IPv6`,
      ),
    );
    expect(russian).toContain(`<summary>не поддерживает IPv6: ${notCovering}</summary>`);
  });
});

describe('badge', () => {
  it('is an SVG badge naming the target and its verdict, with embedding headers', async () => {
    const response = await service.get(`/ip/v1/share/${tokens.ip}/badge.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('cache-control')).toContain('max-age');
    const svg = parseStrictSvg(await response.text());
    expect(svg.name).toBe('svg');
    expect(svg.attributes['aria-label']).toContain(listedIp);
  });

  it.each(badgeStyles)('renders the %s style', async (style) => {
    const response = await service.get(`/ip/v1/share/${tokens.ip}/badge.svg?style=${style}`);
    expect(response.status).toBe(200);
    expect(parseStrictSvg(await response.text()).name).toBe('svg');
  });

  it('falls back to the flat style for an unknown style instead of breaking the image', async () => {
    const flat = await (await service.get(`/ip/v1/share/${tokens.ip}/badge.svg`)).text();
    const odd = await service.get(`/ip/v1/share/${tokens.ip}/badge.svg?style=<script>`);
    expect(odd.status).toBe(200);
    expect(await odd.text()).toBe(flat);
  });

  it('reads the first of a repeated style, and falls back to flat when it is unknown', async () => {
    const badge = (query: string) =>
      service.get(`/ip/v1/share/${tokens.ip}/badge.svg${query}`).then(async (response) => {
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
        return response.text();
      });
    const [flat, plastic] = [await badge(''), await badge('?style=plastic')];
    expect(plastic).not.toBe(flat);
    expect(await badge('?style=plastic&style=flat')).toBe(plastic);
    expect(await badge('?style=unknown&style=plastic')).toBe(flat);
    expect(await badge('?style=&style=')).toBe(flat);
    expect(await badge('?style[]=plastic')).toBe(flat);
  });

  it('answers an unknown token with a 404 that is still an SVG badge saying so', async () => {
    const response = await service.get('/ip/v1/share/AAAAAAAAAAAAAAAAAAAAAA/badge.svg');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(parseStrictSvg(await response.text()).attributes['aria-label']).toMatch(/not found/);
  });
});

describe('card', () => {
  const cardOf = (path: string) => fetchCard(service, path);

  it('is a 1200x630 PNG that is not blank for a listed IP', async () => {
    const { header, bytes } = await cardOf(`/ip/v1/share/${tokens.ip}/card`);
    expect(header).toMatchObject({ width: 1200, height: 630 });
    // A blank card compresses to a few kilobytes; a drawn one takes tens.
    expect(bytes).toBeGreaterThan(20_000);
  });

  it('serves the same bytes again with the same ETag and a 304 to If-None-Match', async () => {
    const path = `/ip/v1/share/${tokens.ip}/card`;
    const first = await cardOf(path);
    const etag = first.response.headers.get('etag')!;
    expect((await cardOf(path)).response.headers.get('etag')).toBe(etag);
    expect((await service.get(path, { 'If-None-Match': etag })).status).toBe(304);
  });
});

describe('in Russian', () => {
  const etagOf = (response: Response) => response.headers.get('etag')?.replace(/^W\//, '') ?? '';

  it('writes the badge in the language ?lang= names, the same for every client', async () => {
    const path = `/ip/v1/share/${tokens.ip}/badge.svg?lang=ru`;
    const response = await service.get(path, { 'Accept-Language': 'en' });
    expect(response.status).toBe(200);
    const label = parseStrictSvg(await response.text()).attributes['aria-label'];
    expect(label).toMatch(new RegExp(`^IP ${listedIp}: в списках: 2 из \\d+ · \\d+/100$`));
    expect(response.headers.get('vary') ?? '').not.toMatch(/Accept-Language/);
    expect(etagOf(response)).toMatch(/^"ru-/);
    const again = await service.get(path, { 'Accept-Language': 'ru' });
    expect(etagOf(again)).toBe(etagOf(response));
    // An explicit English badge stays English for a Russian reader.
    const english = await service.get(`/ip/v1/share/${tokens.ip}/badge.svg?lang=en`, {
      'Accept-Language': 'ru',
    });
    expect(parseStrictSvg(await english.text()).attributes['aria-label']).toMatch(/listed on 2/);
  });

  it('follows Accept-Language without ?lang=, and says the badge varies on it', async () => {
    const response = await service.get(`/ip/v1/share/${tokens.ip}/badge.svg`, {
      'Accept-Language': 'ru-RU,ru;q=0.9,en;q=0.5',
    });
    expect(parseStrictSvg(await response.text()).attributes['aria-label']).toMatch(/в списках/);
    expect(response.headers.get('vary')).toMatch(/Accept-Language/);
    const missing = await service.get('/ip/v1/share/AAAAAAAAAAAAAAAAAAAAAA/badge.svg?lang=ru');
    expect(missing.status).toBe(404);
    expect(parseStrictSvg(await missing.text()).attributes['aria-label']).toBe(
      'репутация: не найдено',
    );
  });

  it('draws a Russian card: a real 1200x630 PNG, kept apart from the English one', async () => {
    const path = `/ip/v1/share/${tokens.ip}/card`;
    const russian = await service.get(`${path}?lang=ru`);
    expect(russian.status).toBe(200);
    const png = Buffer.from(await russian.arrayBuffer());
    expect(pngHeader(png)).toMatchObject({ width: 1200, height: 630 });
    const english = Buffer.from(await (await service.get(`${path}?lang=en`)).arrayBuffer());
    expect(png.equals(english)).toBe(false);
    // The same card the renderer draws in Russian from the stored result, its meanings in Russian.
    const stored = (await (await service.get(`/ip/v1/${tokens.ip}`)).json()) as Record<
      string,
      unknown
    >;
    const texts = resultTexts('ru', translator('ru'), russianMeanings(bundledZoneList()));
    const summary = texts.summary(summariseIp(stored));
    expect(png.equals(Buffer.from(await service.renderCard(summary, 'ru')))).toBe(true);
    // Its validator names the language; an English one never revalidates it.
    const etag = etagOf(russian);
    expect(etag).toMatch(/^"ru-/);
    expect(russian.headers.get('vary') ?? '').not.toMatch(/Accept-Language/);
    expect((await service.get(`${path}?lang=ru`, { 'If-None-Match': etag })).status).toBe(304);
    const englishEtag = etag.replace('"ru-', '"en-');
    expect((await service.get(`${path}?lang=ru`, { 'If-None-Match': englishEtag })).status).toBe(
      200,
    );
    const negotiated = await service.get(path, { 'Accept-Language': 'ru' });
    expect(Buffer.from(await negotiated.arrayBuffer()).equals(png)).toBe(true);
    expect(negotiated.headers.get('vary')).toMatch(/Accept-Language/);
  });

  it('points the Russian share page at the Russian card and badge', async () => {
    const page = await (await service.get(`/ip/v1/share/${tokens.ip}?lang=ru`)).text();
    const card = service.url(`/ip/v1/share/${tokens.ip}/card?lang=ru`);
    expect(page).toContain(`<meta property="og:image" content="${card}"`);
    expect(page).toContain(service.url(`/ip/v1/share/${tokens.ip}/badge.svg?lang=ru`));
  });
});

describe('share page', () => {
  it('carries Open Graph and Twitter tags pointing at the card, and the badge embed snippets', async () => {
    const response = await service.get(`/ip/v1/share/${tokens.ip}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    const card = service.url(`/ip/v1/share/${tokens.ip}/card?lang=en`);
    expect(page).toContain(`<meta property="og:image" content="${card}"`);
    expect(page).toContain('<meta name="twitter:card" content="summary_large_image"');
    expect(page).toContain('og:image:width" content="1200"');
    expect(page).toContain(
      `[![${listedIp}](${service.url(`/ip/v1/share/${tokens.ip}/badge.svg?lang=en`)})]`,
    );
    expect(page).toContain('&lt;img src=');
  });

  it('answers an unknown token with a JSON 404', async () => {
    expect((await service.get('/ip/v1/share/AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
  });
});
