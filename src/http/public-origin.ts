import type { Context } from 'hono';
import { trustedProxyCount, type TrustProxy } from './caller.js';
import { entryOfOutermost, hostOf, parseForwarded, parseList, schemeOf } from './forwarded.js';

/**
 * Where the public reaches the service, for the absolute URLs of share pages, Open Graph tags and
 * embed snippets (docs/DESIGN.md: PUBLIC_URL; docs/pages.md):
 *
 * 1. `PUBLIC_URL`, when set: always, whatever the request says.
 * 2. Else the scheme and host a trusted proxy forwarded (TRUST_PROXY): `Forwarded` (RFC 7239)
 *    first, then `X-Forwarded-Proto` / `X-Forwarded-Host`, each read from the entry the outermost
 *    trusted proxy wrote. Headers from an untrusted peer are anyone's to forge and are ignored.
 * 3. Else the request's own scheme and `Host` header.
 *
 * `source` says which: a response built from the Host header alone (`host`) must not be stored by
 * shared caches (`Host: evil.example` would otherwise be served to everyone), so such responses
 * are sent `no-store` instead of `immutable`.
 */

export type OriginSource = 'configured' | 'forwarded' | 'host';

export interface PublicOrigin {
  /** `https://rep.example.org` or `https://example.org/prefix`: no trailing slash. BASE_PATH follows. */
  base: string;
  source: OriginSource;
}

export interface PublicOriginOptions {
  publicUrl?: string;
  trustProxy: TrustProxy;
  peerAddress: (c: Context) => string;
}

export type PublicOriginOf = (c: Context) => PublicOrigin;

export function createPublicOrigin(options: PublicOriginOptions): PublicOriginOf {
  const { publicUrl, trustProxy, peerAddress } = options;
  if (publicUrl !== undefined) {
    const configured: PublicOrigin = { base: publicUrl, source: 'configured' };
    return () => configured;
  }
  return (c) => {
    const header = (name: string) => c.req.header(name);
    const own = new URL(c.req.url);
    const trusted = trustedProxyCount(peerAddress(c), header, trustProxy);
    const forwarded = trusted > 0 ? forwardedOrigin(header, trusted) : {};
    const scheme = forwarded.scheme ?? (own.protocol === 'https:' ? 'https' : 'http');
    if (forwarded.host !== undefined) {
      return { base: `${scheme}://${forwarded.host}`, source: 'forwarded' };
    }
    return { base: `${scheme}://${hostOf(header('host')) ?? own.host}`, source: 'host' };
  };
}

function forwardedOrigin(
  header: (name: string) => string | undefined,
  trusted: number,
): { scheme?: 'http' | 'https'; host?: string } {
  const standard = header('forwarded');
  const element =
    standard === undefined ? undefined : entryOfOutermost(parseForwarded(standard), trusted);
  const scheme =
    schemeOf(element?.proto) ??
    schemeOf(entryOfOutermost(parseList(header('x-forwarded-proto')), trusted));
  const host =
    hostOf(element?.host) ??
    hostOf(entryOfOutermost(parseList(header('x-forwarded-host')), trusted));
  return { ...(scheme ? { scheme } : {}), ...(host ? { host } : {}) };
}
