import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStrictSvg } from '../../share/svg-structure.js';
import type { TestService } from '../../support/service.js';
import { fetchBadge, fetchCard } from '../common/artefacts.js';
import { cleanIp, listedIp, poolClient, startPoolService } from './world.js';

/**
 * The pool tool's share routes through HTTP: the badge and card of a discover token and of a
 * check token, on the Node server and inside workerd on the Worker.
 */

let service: TestService;
let pool: ReturnType<typeof poolClient>;
beforeAll(async () => {
  service = await startPoolService();
  pool = poolClient(service);
});
afterAll(() => service.close());

describe('share routes of the pool tool', () => {
  let checkToken: string;
  let discoverToken: string;
  beforeAll(async () => {
    discoverToken = (await pool.discover({ pool: 'small.pool-one.net' })).token;
    checkToken = (await pool.check({ pool: 'small.pool-one.net', ips: [cleanIp, listedIp] })).token;
  });

  const badgeOf = (token: string) => fetchBadge(service, `/pool/v1/share/${token}/badge.svg`);

  async function cardOf(token: string) {
    const { header, bytes } = await fetchCard(service, `/pool/v1/share/${token}/card`);
    return { size: [header?.width, header?.height], bytes };
  }

  it('serves an SVG badge of a check token naming the pool and how many addresses are listed', async () => {
    const svg = await badgeOf(checkToken);
    expect(svg.name).toBe('svg');
    expect(svg.attributes['aria-label']).toBe('pool small.pool-one.net: 1 of 2 listed');
  });

  it('serves an SVG badge of a discover token counting the addresses found', async () => {
    const svg = await badgeOf(discoverToken);
    expect(svg.attributes['aria-label']).toBe('pool small.pool-one.net: 4 addresses found');
  });

  it.each([
    ['a check token', () => checkToken],
    ['a discover token', () => discoverToken],
  ])('serves a 1200x630 PNG card that is not blank for %s', async (_, token) => {
    const card = await cardOf(token());
    expect(card.size).toEqual([1200, 630]);
    // A blank card compresses to a few kilobytes; a drawn one takes tens.
    expect(card.bytes).toBeGreaterThan(20_000);
  });

  it('answers an unknown token with a 404: an SVG badge saying so, a JSON error for the card', async () => {
    const badge = await service.get('/pool/v1/share/AAAAAAAAAAAAAAAAAAAAAA/badge.svg');
    expect(badge.status).toBe(404);
    expect(badge.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(parseStrictSvg(await badge.text()).attributes['aria-label']).toMatch(/not found/);
    const card = await service.get('/pool/v1/share/AAAAAAAAAAAAAAAAAAAAAA/card');
    expect(card.status).toBe(404);
    expect(await card.json()).toMatchObject({ status: 'error', code: 'not_found' });
  });

  it('does not serve a pool token’s artefacts from another tool’s path', async () => {
    expect((await service.get(`/ip/v1/share/${checkToken}/badge.svg`)).status).toBe(404);
  });
});
