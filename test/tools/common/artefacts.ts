import { expect } from 'vitest';
import { type SvgElement, parseStrictSvg } from '../../share/svg-structure.js';
import { pngHeader } from '../../support/png.js';
import type { RouteService } from '../../support/harness.js';

/**
 * The share artefacts as every tool's share routes serve them, read back with what a browser or
 * an embedding page relies on checked on the way: a card is a PNG any origin may embed, a badge
 * a strict SVG.
 */

export async function fetchCard(service: RouteService, path: string) {
  const response = await service.get(path);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/png');
  expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  const png = new Uint8Array(await response.arrayBuffer());
  return { response, header: pngHeader(png), bytes: png.byteLength };
}

export async function fetchBadge(service: RouteService, path: string): Promise<SvgElement> {
  const response = await service.get(path);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  return parseStrictSvg(await response.text());
}
