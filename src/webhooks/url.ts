import { isDottedQuad, isPublicIpv4, isPublicIpv6, isSpecialUseName } from '../lib/index.js';

/**
 * Where a webhook may point (docs/watches.md, "Safety"): an `http` or `https` URL whose host is a
 * public address or a public host name. Literal addresses are checked here, at creation; a host
 * name's addresses are checked at every delivery (address.ts), since they may change.
 * The non-public rules are the targets' own, from src/lib/ (RFC 6890 for IPv4, the IPv6 rules of
 * ipv6.ts, the special-use names of special-use-names.ts), so a webhook cannot reach what a check
 * may not ask about.
 */

/** Whether a webhook may reach an address: it is public, or inside WEBHOOK_ALLOW_NETWORKS. */
export type Reachable = (address: string) => boolean;

/** The rule of `Reachable`, with the allowed networks' test given. */
export function reachableWith(allowedNetwork: (address: string) => boolean): Reachable {
  return (address) =>
    (isDottedQuad(address) ? isPublicIpv4(address) : isPublicIpv6(address)) ||
    allowedNetwork(address);
}

/** A webhook URL's host: an address (IPv6 without its brackets) or a host name. */
export type WebhookHost = { kind: 'address'; address: string } | { kind: 'name'; name: string };

/**
 * Longer URLs are refused: no receiver needs one, and each is stored with its watch. The limit
 * holds for the URL as it is stored (normalised by the URL parser, which percent-encodes what it
 * must: one character can become twelve), not only for the text the caller sent.
 */
export const maxWebhookUrlLength = 2048;

/** An inclusive range of TCP ports. */
export type PortRange = readonly [number, number];

/**
 * The ports a webhook may name when WEBHOOK_ALLOW_PORTS is not set: the web's own two, and the
 * registered and dynamic ports (1024 to 65535, RFC 6335 §6) where receivers often listen; not the
 * system ports of other services (SSH on 22, SMTP on 25, ...), nor 0.
 */
export const defaultWebhookPorts: readonly PortRange[] = [
  [80, 80],
  [443, 443],
  [1024, 65535],
];

/**
 * Reads WEBHOOK_ALLOW_PORTS' form: a comma list of ports and ranges (`80,443,8000-8999`), each
 * from 1 to 65535. Undefined when an entry is neither.
 */
export function parsePortRanges(entries: readonly string[]): PortRange[] | undefined {
  const ranges: PortRange[] = [];
  for (const entry of entries) {
    const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(entry.trim());
    if (!match) return undefined;
    const low = Number(match[1]);
    const high = Number(match[2] ?? match[1]);
    if (low < 1 || high > 65535 || low > high) return undefined;
    ranges.push([low, high]);
  }
  return ranges;
}

/** A URL's port, the scheme's default when it names none (RFC 9110 §4.2.1, §4.2.2). */
export function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

export type WebhookUrlCheck =
  { ok: true; url: string; host: WebhookHost } | { ok: false; reason: string };

/**
 * Reads a webhook URL as the WHATWG URL parser does (so `http://0x7f.1/` is `127.0.0.1`, as any
 * client would connect to it) and applies the rules: the error names what is wrong, never
 * whether a name exists.
 */
export function checkWebhookUrl(
  text: string,
  reachable: Reachable,
  ports: readonly PortRange[] = defaultWebhookPorts,
): WebhookUrlCheck {
  const tooLong = {
    ok: false as const,
    reason: `webhook_url is longer than ${maxWebhookUrlLength} characters`,
  };
  if (text.length > maxWebhookUrlLength) return tooLong;
  if (!URL.canParse(text)) return { ok: false, reason: 'webhook_url is not a URL' };
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: 'webhook_url must be an http or https URL' };
  }
  // Credentials in a URL end up in logs and proxies; the signature is the receiver's proof.
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'webhook_url must not carry a user name or password' };
  }
  if (url.href.length > maxWebhookUrlLength) return tooLong;
  const port = portOf(url);
  if (!ports.some(([low, high]) => port >= low && port <= high)) {
    return {
      ok: false,
      reason: `webhook_url names port ${port}; a webhook may use 80, 443 or 1024 to 65535 (WEBHOOK_ALLOW_PORTS)`,
    };
  }
  const host = webhookHost(url);
  const refused = refusal(host, reachable);
  return refused ? { ok: false, reason: refused } : { ok: true, url: url.href, host };
}

export function webhookHost(url: URL): WebhookHost {
  // Every trailing dot goes before the rules apply: `localhost..` is `localhost` to a resolver's
  // search as much as `localhost.` is (RFC 1034 §3.1: the root's label is the one empty label).
  const hostname = url.hostname.replace(/\.+$/, '');
  if (hostname.startsWith('[')) return { kind: 'address', address: hostname.slice(1, -1) };
  if (isDottedQuad(hostname)) return { kind: 'address', address: hostname };
  return { kind: 'name', name: hostname };
}

/** Why a host may not be reached, or undefined when it may (a name: as far as can be told now). */
export function refusal(host: WebhookHost, reachable: Reachable): string | undefined {
  if (host.kind === 'address') {
    return reachable(host.address)
      ? undefined
      : `webhook_url points to ${host.address}, which is not a public address`;
  }
  return isSpecialUseName(host.name)
    ? `webhook_url points to ${host.name}, which is not a public host name`
    : undefined;
}
