import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgeStyles } from '../../../src/share/badge.js';
import { summariseDomain } from '../../../src/tools/domain/summary.js';
import { summariseIp } from '../../../src/tools/ip/summary.js';
import { keylessCounts } from '../../fixtures/keyless-lists.js';
import { parseStrictSvg } from '../../share/svg-structure.js';
import { pngHeader } from '../../support/png.js';
import { type TestService, startTestService } from '../../support/service.js';

/**
 * The share routes of the IP and domain tools through HTTP (the pool's are in pool.test.ts), on
 * the Node server and inside workerd on the Worker. Whether a card's pixels are drawn at all is
 * measured on Node (test/node/cards/card-render.test.ts); here its PNG header and weight.
 */

const listedIp = '192.0.3.20';
const idnDomain = 'xn--e1afmkfd.xn--p1ai'; // пример.рф
/** аpple.com with a Cyrillic а: a label mixing scripts, shown in ASCII. */
const lookAlike = { unicode: 'аpple.com', ascii: 'xn--pple-43d.com' };
/** A public IPv6 address as long as a canonical one gets (39 characters), of wide glyphs. */
const longIpv6 = '2a0d:b8d9:8d9b:b8d9:d9b8:9bd8:8db9:b9d8';
const longDomain = `${['a', 'b', 'c'].map((l) => `${l}${'x'.repeat(62)}`).join('.')}.${'y'.repeat(57)}.com`;

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
    zones: [
      {
        origin: idnDomain,
        records: { [idnDomain]: { A: ['192.0.3.40'], TXT: ['v=spf1 a -all'] } },
      },
      { origin: longDomain, records: { [longDomain]: { A: ['192.0.3.41'] } } },
      { origin: lookAlike.ascii, records: { [lookAlike.ascii]: { A: ['192.0.3.42'] } } },
    ],
  });
  expect(longDomain.length).toBe(253);
  tokens.ip = await tokenOf('/ip/v1', { target: listedIp });
  tokens.ipv6 = await tokenOf('/ip/v1', { target: longIpv6.toUpperCase() });
  tokens.idn = await tokenOf('/domain/v1', { domain: 'пример.рф' });
  tokens.long = await tokenOf('/domain/v1', { domain: longDomain });
  tokens.lookAlike = await tokenOf('/domain/v1', { domain: lookAlike.unicode });
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

  it('answers 304 to a matching If-None-Match and 200 to a stale one', async () => {
    const first = await service.get(`/domain/v1/share/${tokens.idn}/badge.svg`);
    const etag = first.headers.get('etag')!;
    // Weak when the badge went out compressed (fetch asks for gzip and brotli).
    expect(etag).toMatch(/^(W\/)?".+"$/);
    const again = await service.get(`/domain/v1/share/${tokens.idn}/badge.svg`, {
      'If-None-Match': etag,
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    const stale = await service.get(`/domain/v1/share/${tokens.idn}/badge.svg`, {
      'If-None-Match': '"other"',
    });
    expect(stale.status).toBe(200);
  });
});

describe('card', () => {
  async function cardOf(path: string) {
    const response = await service.get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const png = new Uint8Array(await response.arrayBuffer());
    return { response, header: pngHeader(png), bytes: png.byteLength };
  }

  it.each([
    ['a listed IP', 'ip', 'ip'],
    ['an IDN domain', 'domain', 'idn'],
    ['a 253-character domain', 'domain', 'long'],
  ])('is a 1200x630 PNG that is not blank for %s', async (_name, tool, key) => {
    const { header, bytes } = await cardOf(`/${tool}/v1/share/${tokens[key]}/card`);
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

  it('answers an unknown token with a JSON 404', async () => {
    const response = await service.get('/domain/v1/share/AAAAAAAAAAAAAAAAAAAAAA/card');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: 'error', code: 'not_found' });
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
    // The same card the renderer draws in Russian from the stored result.
    const stored = (await (await service.get(`/ip/v1/${tokens.ip}`)).json()) as Record<
      string,
      unknown
    >;
    expect(png.equals(Buffer.from(await service.renderCard(summariseIp(stored), 'ru')))).toBe(true);
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

describe('a look-alike name (a label mixing scripts)', () => {
  it('is stored under its ASCII form, with no Unicode display form', async () => {
    const result = (await (await service.get(`/domain/v1/${tokens.lookAlike}`)).json()) as {
      domain: string;
      display?: string;
    };
    expect(result.domain).toBe(lookAlike.ascii);
    expect(result.display).toBeUndefined();
  });

  it('is shown in ASCII on the badge', async () => {
    const svg = await (await service.get(`/domain/v1/share/${tokens.lookAlike}/badge.svg`)).text();
    expect(parseStrictSvg(svg).attributes['aria-label']).toContain(lookAlike.ascii);
    expect(svg).not.toContain(lookAlike.unicode);
  });

  it('is shown in ASCII on the card: the same PNG as a card drawn with the ASCII name', async () => {
    const card = Buffer.from(
      await (await service.get(`/domain/v1/share/${tokens.lookAlike}/card`)).arrayBuffer(),
    );
    const stored = (await (await service.get(`/domain/v1/${tokens.lookAlike}`)).json()) as Record<
      string,
      unknown
    >;
    const summary = summariseDomain(stored);
    expect(summary.target).toBe(lookAlike.ascii);
    const render = (drawn: typeof summary) => service.renderCard(drawn).then(Buffer.from);
    expect(card.equals(await render(summary))).toBe(true);
    expect(card.equals(await render({ ...summary, target: lookAlike.unicode }))).toBe(false);
  });

  it('is shown in ASCII on the page, with the Unicode form only beside it and a warning', async () => {
    const page = await (await service.get(`/domain/v1/share/${tokens.lookAlike}`)).text();
    expect(page).toContain(`<title>Sending domain ${lookAlike.ascii}`);
    expect(page).toContain(`<h1>Sending domain ${lookAlike.ascii}</h1>`);
    const mentions = page.split(lookAlike.unicode).length - 1;
    expect(mentions).toBe(1);
    expect(page).toMatch(
      new RegExp(
        `<strong>Shown in its ASCII form: its Unicode form, ${lookAlike.unicode}, mixes Cyrillic and Latin letters`,
      ),
    );
  });
});
