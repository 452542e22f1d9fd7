import type { Context } from 'hono';
import { matchesEtag } from '../../http/index.js';
import type { Lang } from '../../i18n/index.js';
import { base64url } from '../../lib/index.js';

/**
 * Answers that never change (a stored result, its badge, card and share page): cacheable for a
 * day as immutable, validated by a strong ETag of their bytes (RFC 9110 §8.8.3), which names the
 * answer's language too (`"ru-…"`) where it has one, so no validator of one language ever matches
 * another; a matching If-None-Match answers 304 (§13.1.2, §15.4.5).
 */

export const immutable = 'public, max-age=86400, immutable';

/**
 * An answer about the caller (its quota): no cache keeps it, a shared one least of all, where it
 * would answer one caller's status to another (RFC 9111 §5.2.2.5 no-store, §5.2.2.7 private).
 */
export const callerOwn = { 'Cache-Control': 'private, no-store' };
export const callerOwnHeaders = {
  'Cache-Control': {
    description: `${callerOwn['Cache-Control']}: the answer is the caller's own, never cached.`,
    schema: { type: 'string' as const },
  },
};

/** Embeds live on other sites: the default same-origin resource policy would break them. */
export const embeddable = { 'Cross-Origin-Resource-Policy': 'cross-origin' };

export interface CacheableOptions {
  digest: (bytes: Uint8Array) => Promise<Uint8Array>;
  /** The language the bytes are in, when they are in one. */
  lang?: Lang;
  headers?: Record<string, string>;
}

export async function cacheable(
  c: Context,
  body: Uint8Array,
  contentType: string,
  options: CacheableOptions,
): Promise<Response> {
  const hash = await etagOf(body, options.digest);
  const etag = options.lang === undefined ? `"${hash}"` : `"${options.lang}-${hash}"`;
  const headers = { ETag: etag, 'Cache-Control': immutable, ...options.headers };
  if (matchesEtag(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
  // A view of the same bytes (Hono's types want an ArrayBuffer-backed Uint8Array), not a copy.
  const bytes = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
  return c.body(bytes, 200, { ...headers, 'Content-Type': contentType });
}

/** Cached cards come back as the same bytes: their hash is taken once, not per request. */
const etags = new WeakMap<Uint8Array, string>();

async function etagOf(
  body: Uint8Array,
  digest: (bytes: Uint8Array) => Promise<Uint8Array>,
): Promise<string> {
  let etag = etags.get(body);
  if (etag === undefined) {
    etag = base64url(await digest(body)).slice(0, 27);
    etags.set(body, etag);
  }
  return etag;
}
