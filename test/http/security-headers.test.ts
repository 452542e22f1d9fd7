import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, startTestService } from '../support/service.js';

/**
 * Issue 13: `X-Content-Type-Options: nosniff` and a Referrer-Policy on every answer, whatever
 * route or error produced it, and a strict Content-Security-Policy on the HTML share page.
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
  it('has a Content-Security-Policy that allows its one inline style by hash and nothing else', async () => {
    const response = await service.get(`/ip/v1/share/${token}`);
    const page = await response.text();
    const policy = response.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(
      policy.split(';').map((directive) => {
        const [name = '', ...values] = directive.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(directives['form-action']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    // The only script-capable or styled content: one <style>, whose exact text is the hash allowed.
    expect(page).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
    const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]!);
    expect(styles).toHaveLength(1);
    const hash = createHash('sha256').update(styles[0]!).digest('base64');
    expect(directives['style-src']).toEqual([`'sha256-${hash}'`]);
    // The card and the badge it shows come from the page's own origin.
    const origin = new URL(service.url('/')).origin;
    expect(directives['img-src']).toEqual(["'self'", origin]);
    expect(page).toContain(`src="${service.url(`/ip/v1/share/${token}/card`)}"`);
  });
});
