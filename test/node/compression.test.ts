import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding } from '../../src/node/compression.js';
import { rawRequest } from '../support/raw-http.js';
import { type TestService, startTestService } from '../support/service.js';

/** Compression by the Node entry point, on the wire (node:http: nothing decompresses for us). */

let service: TestService;
let token: string;
let identity: Buffer;

beforeAll(async () => {
  service = await startTestService({
    zones: [
      {
        origin: 'sender-one.com',
        records: {
          'sender-one.com': { A: ['192.0.3.40'], TXT: ['v=spf1 a ip4:192.0.3.64/29 -all'] },
        },
      },
    ],
  });
  const response = await service.post('/domain/v1', { domain: 'sender-one.com' });
  expect(response.status).toBe(200);
  token = ((await response.json()) as { token: string }).token;
  identity = (await rawRequest(service.url(`/domain/v1/${token}`))).body;
});
afterAll(() => service.close());

const decoders = { br: brotliDecompressSync, gzip: gunzipSync };

describe('chooseEncoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0, gzip;q=0.1', 'gzip'],
    ['identity', undefined],
    ['br;q=0, gzip;q=0', undefined],
    ['deflate', undefined],
  ])('picks %s as %s', (header, encoding) => {
    expect(chooseEncoding(header)).toBe(encoding);
  });
});

describe('compression', () => {
  it.each(['br', 'gzip'] as const)(
    'sends a JSON result as %s, decoding to the same bytes, with Vary and Content-Length',
    async (encoding) => {
      const response = await rawRequest(service.url(`/domain/v1/${token}`), {
        headers: { 'Accept-Encoding': encoding },
      });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers.vary).toMatch(/Accept-Encoding/);
      expect(Number(response.headers['content-length'])).toBe(response.body.byteLength);
      expect(response.body.byteLength).toBeLessThan(identity.byteLength / 2);
      expect(decoders[encoding](response.body).equals(identity)).toBe(true);
    },
  );

  it.each([
    ['the share page', '/domain/v1/share/{token}', /^text\/html/],
    ['the badge', '/domain/v1/share/{token}/badge.svg', /^image\/svg\+xml/],
    ['the OpenAPI document', '/openapi.json', /^application\/json/],
  ])('compresses %s', async (_name, path, type) => {
    const response = await rawRequest(service.url(path.replace('{token}', token)), {
      headers: { 'Accept-Encoding': 'gzip, br' },
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(type);
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.body).byteLength).toBeGreaterThan(
      response.body.byteLength,
    );
  });

  it('weakens the strong ETag of what it compresses, and a revalidation of it answers 304', async () => {
    const path = service.url(`/domain/v1/share/${token}/badge.svg`);
    const plain = await rawRequest(path);
    const compressed = await rawRequest(path, { headers: { 'Accept-Encoding': 'br' } });
    expect(compressed.headers.etag).toBe(`W/${String(plain.headers.etag)}`);
    const again = await rawRequest(path, {
      headers: { 'Accept-Encoding': 'br', 'If-None-Match': String(compressed.headers.etag) },
    });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(compressed.headers.etag);
  });

  it('leaves small answers, PNG cards and clients that ask for no encoding alone', async () => {
    const status = await rawRequest(service.url('/ip/v1/status'), {
      headers: { 'Accept-Encoding': 'br' },
    });
    expect(status.headers['content-encoding']).toBeUndefined();
    const card = await rawRequest(service.url(`/domain/v1/share/${token}/card`), {
      headers: { 'Accept-Encoding': 'br' },
    });
    expect(card.headers['content-type']).toBe('image/png');
    expect(card.headers['content-encoding']).toBeUndefined();
    const plain = await rawRequest(service.url(`/domain/v1/${token}`), {
      headers: { 'Accept-Encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    expect(plain.body.equals(identity)).toBe(true);
  });

  it('leaves an answer to a client that sent no Accept-Encoding exactly as it was', async () => {
    const response = await rawRequest(service.url(`/domain/v1/${token}`));
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toBeUndefined();
  });
});

describe('HEAD', () => {
  it.each([
    ['a JSON result', '/domain/v1/{token}', {}],
    ['a compressed JSON result', '/domain/v1/{token}', { 'Accept-Encoding': 'gzip' }],
    ['the share page', '/domain/v1/share/{token}', { Accept: 'text/html' }],
    ['a badge', '/domain/v1/share/{token}/badge.svg', {}],
    ['a card', '/domain/v1/share/{token}/card', {}],
    ['a status', '/ip/v1/status', {}],
  ])('answers %s with the Content-Length of the GET and no body', async (_name, path, headers) => {
    const url = service.url(path.replace('{token}', token));
    const get = await rawRequest(url, { headers });
    const head = await rawRequest(url, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(head.headers['content-length']).toBe(String(get.body.byteLength));
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
  });
});
