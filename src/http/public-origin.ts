import type { Context } from 'hono';
import { type ForwardedFamily, trustedProxyCount, type TrustProxy } from './caller.js';
import { entryOfOutermost, hostOf, parseForwarded, parseList, schemeOf } from './forwarded.js';

/**
 * Where the public reaches the service, for the absolute URLs of share pages, Open Graph tags and
 * embed snippets (docs/DESIGN.md: PUBLIC_URL; docs/pages.md):
 *
 * 1. `PUBLIC_URL`, when set: always, whatever the request says.
 * 2. Else the scheme and host a trusted proxy forwarded (TRUST_PROXY), from the one header family
 *    FORWARDED_HEADERS names: `X-Forwarded-Proto` / `X-Forwarded-Host` (the default), or
 *    `Forwarded` (RFC 7239), never both, read from the entry the outermost trusted proxy wrote.
 *    Behind Cloudflare (`cloudflare`) only the scheme: Cloudflare passes a client's own
 *    X-Forwarded-Host through, so no host it forwards is believed. Headers from an untrusted peer
 *    are anyone's to forge and are ignored.
 * 3. Else the request's own scheme and `Host` header.
 *
 * `source` says which. Only a configured origin goes into a response shared caches may keep: a
 * proxy that passes a client's header of a family it does not set, or a `Host: evil.example`,
 * would otherwise have its URLs served to everyone; responses built from request headers are
 * sent `no-store`.
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
  forwardedHeaders?: ForwardedFamily;
  peerAddress: (c: Context) => string;
}

export type PublicOriginOf = (c: Context) => PublicOrigin;

export function createPublicOrigin(options: PublicOriginOptions): PublicOriginOf {
  const { publicUrl, trustProxy, peerAddress } = options;
  const family = options.forwardedHeaders ?? 'x-forwarded';
  if (publicUrl !== undefined) {
    const configured: PublicOrigin = { base: publicUrl, source: 'configured' };
    return () => configured;
  }
  return (c) => {
    const header = (name: string) => c.req.header(name);
    const own = new URL(c.req.url);
    const trusted = trustedProxyCount(peerAddress(c), header, trustProxy, family);
    const forwarded = trusted > 0 ? forwardedOrigin(header, trusted, family) : {};
    // Cloudflare forwards the scheme it was reached by; the host is the client's to choose.
    if (trustProxy.mode === 'cloudflare') delete forwarded.host;
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
  family: ForwardedFamily,
): { scheme?: 'http' | 'https'; host?: string } {
  let scheme: 'http' | 'https' | undefined;
  let host: string | undefined;
  if (family === 'forwarded') {
    const element = entryOfOutermost(parseForwarded(header('forwarded') ?? ''), trusted);
    scheme = schemeOf(element?.proto);
    host = hostOf(element?.host);
  } else {
    scheme = schemeOf(entryOfOutermost(parseList(header('x-forwarded-proto')), trusted));
    host = hostOf(entryOfOutermost(parseList(header('x-forwarded-host')), trusted));
  }
  return { ...(scheme ? { scheme } : {}), ...(host ? { host } : {}) };
}
