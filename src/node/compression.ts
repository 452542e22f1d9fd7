import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { LRUCache } from 'lru-cache';

/**
 * Response compression for the Node entry point (docs/openapi.md, HTTP manners): brotli or gzip
 * for JSON, HTML, SVG, JavaScript and CSS, chosen by Accept-Encoding (RFC 9110 §12.5.3). It lives
 * here, injected by the entry point, because a Workers build is compressed by the edge and its
 * core must not need node:zlib; hono's own compress() has no brotli.
 *
 * - Bodies under 1 KiB go out as they are: the headers would eat most of the gain.
 * - Every answer that could have been compressed (1 KiB or more, a compressible type) says
 *   `Vary: Accept-Encoding`, compressed or not, when the client sent Accept-Encoding; answers to
 *   clients that sent none are left untouched (an identity copy is readable by every client, and
 *   the cached-check path keeps its fast headers), as are those already encoded or `no-transform`.
 * - A strong ETag becomes weak (`W/`), as nginx does: the compressed bytes are another
 *   representation, and If-None-Match compares weakly (RFC 9110 §13.1.2).
 * - Brotli at quality 5: output 5-10 % smaller than gzip at 6 on these bodies, at comparable
 *   cost; quality 11 (the default) is several times slower for 10 % less (docs/openapi.md).
 * - A body with a strong ETag (share pages, badges, the pages' assets, the OpenAPI document) is
 *   the same bytes every time: its compressed form is kept, by tag and encoding, in a small LRU.
 */

const compressible = /^(application\/(json|javascript|[a-z.+-]+\+json)|text\/|image\/svg\+xml)/i;
const threshold = 1024;

type Encoding = 'br' | 'gzip';

/** The preferred encoding the client accepts: br before gzip at equal q; none for q=0 or absent. */
export function chooseEncoding(acceptEncoding: string): Encoding | undefined {
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const qParameter = parameters.find((parameter) => parameter.startsWith('q='));
    const value = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    if (name !== '' && Number.isFinite(value)) q.set(name, value);
  }
  const wildcard = q.get('*') ?? 0;
  const br = q.get('br') ?? wildcard;
  const gzip = q.get('gzip') ?? q.get('x-gzip') ?? wildcard;
  if (br <= 0 && gzip <= 0) return undefined;
  return br >= gzip ? 'br' : 'gzip';
}

function compress(body: Uint8Array, encoding: Encoding): Uint8Array {
  return encoding === 'br'
    ? brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        },
      })
    : gzipSync(body, { level: 6 });
}

/** Compressed bodies of answers with a strong ETag: a few thousand share pages and badges. */
const cacheBytes = 8 * 1024 * 1024;

export function compressResponses(): MiddlewareHandler {
  const compressed = new LRUCache<string, Uint8Array>({
    maxSize: cacheBytes,
    sizeCalculation: (body) => body.byteLength,
  });
  function compressOnce(body: Uint8Array, encoding: Encoding, etag: string | null) {
    if (etag === null || etag.startsWith('W/')) return compress(body, encoding);
    const key = `${encoding} ${etag}`;
    let kept = compressed.get(key);
    if (kept === undefined) {
      kept = compress(body, encoding);
      compressed.set(key, kept);
    }
    return kept;
  }
  return async (c, next) => {
    const accepted = c.req.header('accept-encoding');
    if (accepted === undefined) return next();
    await next();
    const response = c.res;
    if (response.status === 304) {
      weakenRevalidated(response, c.req.header('if-none-match'));
      return;
    }
    const type = response.headers.get('Content-Type') ?? '';
    if (
      response.body === null ||
      !compressible.test(type) ||
      response.headers.has('Content-Encoding') ||
      /(^|,)\s*no-transform\s*(,|$)/i.test(response.headers.get('Cache-Control') ?? '')
    ) {
      return;
    }
    const body = new Uint8Array(await response.clone().arrayBuffer());
    if (body.byteLength < threshold) return;
    const headers = new Headers(response.headers);
    const vary = headers.get('Vary');
    if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary ?? '')) {
      headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    }
    const encoding = chooseEncoding(accepted);
    let sent: Uint8Array = body;
    if (encoding !== undefined) {
      const etag = headers.get('ETag');
      sent = compressOnce(body, encoding, etag);
      headers.set('Content-Encoding', encoding);
      headers.set('Content-Length', String(sent.byteLength));
      if (etag !== null && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
    }
    c.res = undefined;
    c.res = new Response(sent as Uint8Array<ArrayBuffer>, { status: response.status, headers });
  };
}

/**
 * A 304 names the representation the client holds: when the client revalidates the weak tag of a
 * compressed copy, the answer carries that weak tag too (RFC 9110 §15.4.5).
 */
function weakenRevalidated(response: Response, ifNoneMatch: string | undefined): void {
  const etag = response.headers.get('ETag');
  if (etag === null || etag.startsWith('W/') || ifNoneMatch === undefined) return;
  if (ifNoneMatch.split(',').some((candidate) => candidate.trim() === `W/${etag}`)) {
    response.headers.set('ETag', `W/${etag}`);
  }
}
