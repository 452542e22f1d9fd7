import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summariseDomain } from '../../../src/tools/domain/summary.js';
import type { DomainCheckResult } from '../../../src/reputation/index.js';
import { parseStrictSvg } from '../../share/svg-structure.js';
import { type TestService, startTestService } from '../../support/service.js';
import { fetchCard } from '../common/artefacts.js';

/**
 * The domain tool's share routes through HTTP: GET /domain/v1/share/{token}, its badge.svg and
 * card, for the names hardest to show: an internationalised domain, one of 253 characters, a
 * look-alike mixing scripts (the IP tool's: ip/share.test.ts), on the Node server and inside
 * workerd on the Worker.
 */

const idnDomain = 'xn--e1afmkfd.xn--p1ai'; // пример.рф
/** аpple.com with a Cyrillic а: a label mixing scripts, shown in ASCII. */
const lookAlike = { unicode: 'аpple.com', ascii: 'xn--pple-43d.com' };
const longDomain = `${['a', 'b', 'c'].map((l) => `${l}${'x'.repeat(62)}`).join('.')}.${'y'.repeat(57)}.com`;

let service: TestService;
const tokens: Record<string, string> = {};

async function tokenOf(path: string, body: object): Promise<string> {
  const response = await service.post(path, body);
  if (response.status !== 200)
    throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

beforeAll(async () => {
  service = await startTestService({
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
  tokens.idn = await tokenOf('/domain/v1', { domain: 'пример.рф' });
  tokens.long = await tokenOf('/domain/v1', { domain: longDomain });
  tokens.lookAlike = await tokenOf('/domain/v1', { domain: lookAlike.unicode });
});
afterAll(() => service.close());

describe('badge', () => {
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
  it.each([
    ['an IDN domain', 'idn'],
    ['a 253-character domain', 'long'],
  ])('is a 1200x630 PNG that is not blank for %s', async (_name, key) => {
    const { header, bytes } = await fetchCard(service, `/domain/v1/share/${tokens[key]}/card`);
    expect(header).toMatchObject({ width: 1200, height: 630 });
    // A blank card compresses to a few kilobytes; a drawn one takes tens.
    expect(bytes).toBeGreaterThan(20_000);
  });

  it('answers an unknown token with a JSON 404', async () => {
    const response = await service.get('/domain/v1/share/AAAAAAAAAAAAAAAAAAAAAA/card');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: 'error', code: 'not_found' });
  });
});

describe('a look-alike name (a label mixing scripts)', () => {
  it('is stored under its ASCII form, with no Unicode display form', async () => {
    const result = (await (
      await service.get(`/domain/v1/${tokens.lookAlike}`)
    ).json()) as DomainCheckResult;
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
