import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, basePath, startTestService } from '../support/service.js';

/**
 * docs/http-hardening.md#headers: `X-Content-Type-Options: nosniff` and a Referrer-Policy on every
 * answer, whatever route or error produced it, and one strict Content-Security-Policy on the HTML
 * share page (src/pages/csp.ts).
 */

let service: TestService;
let token: string;
beforeAll(async () => {
  service = await startTestService();
  const check = await service.post('/ip/v1', { target: '8.8.4.4' });
  token = ((await check.json()) as { token: string }).token;
});
afterAll(() => service.close());

describe('every answer', () => {
  const requests: Array<[string, () => Promise<Response>]> = [
    ['a status', () => service.get('/ip/v1/status')],
    ['a fresh check', () => service.post('/ip/v1', { target: '8.8.8.8' })],
    ['a cached check', () => service.post('/ip/v1', { target: '8.8.4.4' })],
    ['a result by token', () => service.get(`/ip/v1/${token}`)],
    ['an unknown token', () => service.get('/ip/v1/AAAAAAAAAAAAAAAAAAAAAA')],
    ['an unknown route', () => service.get('/nowhere')],
    ['a wrong method', () => fetch(service.url('/ip/v1/status'), { method: 'DELETE' })],
    ['a bad body', () => service.post('/ip/v1', '{')],
    ['a badge', () => service.get(`/ip/v1/share/${token}/badge.svg`)],
    ['a card', () => service.get(`/ip/v1/share/${token}/card`)],
    ['a share page', () => service.get(`/ip/v1/share/${token}`)],
    ['the OpenAPI document', () => service.get('/openapi.json')],
    [
      'a CORS preflight',
      () =>
        fetch(service.url('/ip/v1'), {
          method: 'OPTIONS',
          headers: { Origin: 'https://app.example.net', 'Access-Control-Request-Method': 'POST' },
        }),
    ],
  ];

  it.each(requests)('carries nosniff and no-referrer: %s', async (_name, send) => {
    const response = await send();
    await response.arrayBuffer();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('carries them on a 304 too', async () => {
    const first = await service.get(`/ip/v1/share/${token}/badge.svg`);
    const etag = first.headers.get('etag') ?? '';
    const again = await service.get(`/ip/v1/share/${token}/badge.svg`, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('the share page', () => {
  it('has one strict Content-Security-Policy: nothing inline, nothing from another origin', async () => {
    const response = await service.get(`/ip/v1/share/${token}`, { Accept: 'text/html' });
    const page = await response.text();
    // One header: fetch would join a repeated one with ", ".
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).not.toContain(',');
    const directives = Object.fromEntries(
      policy.split(';').map((directive) => {
        const [name = '', ...values] = directive.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['style-src']).toEqual(["'self'"]);
    expect(directives['img-src']).toEqual(["'self'", 'data:']);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(directives['form-action']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    // No inline script (the one <script> with content is JSON data, which never runs), no inline
    // style, no event handler: the script and the stylesheet are same-origin files.
    const inlineScripts = [...page.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)].filter(
      ([, attributes = '', body = '']) =>
        body.trim() !== '' && !attributes.includes('type="application/json"'),
    );
    expect(inlineScripts).toEqual([]);
    expect(page).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    expect(page).toMatch(/<script src="\/[^"]+\.js"/);
    // The card and badge it shows are paths on the page's own origin ('self').
    expect(page).toContain(`src="${basePath}/ip/v1/share/${token}/card?lang=en"`);
    expect(page).toContain(`src="${basePath}/ip/v1/share/${token}/badge.svg?lang=en"`);
  });
});
