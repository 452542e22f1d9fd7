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

/** Longer URLs are refused: no receiver needs one, and each is stored with its watch. */
export const maxWebhookUrlLength = 2048;

export type WebhookUrlCheck =
  { ok: true; url: string; host: WebhookHost } | { ok: false; reason: string };

/**
 * Reads a webhook URL as the WHATWG URL parser does (so `http://0x7f.1/` is `127.0.0.1`, as any
 * client would connect to it) and applies the rules: the error names what is wrong, never
 * whether a name exists.
 */
export function checkWebhookUrl(text: string, reachable: Reachable): WebhookUrlCheck {
  if (text.length > maxWebhookUrlLength) {
    return { ok: false, reason: `webhook_url is longer than ${maxWebhookUrlLength} characters` };
  }
  if (!URL.canParse(text)) return { ok: false, reason: 'webhook_url is not a URL' };
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: 'webhook_url must be an http or https URL' };
  }
  // Credentials in a URL end up in logs and proxies; the signature is the receiver's proof.
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'webhook_url must not carry a user name or password' };
  }
  const host = webhookHost(url);
  const refused = refusal(host, reachable);
  return refused ? { ok: false, reason: refused } : { ok: true, url: url.href, host };
}

export function webhookHost(url: URL): WebhookHost {
  const hostname = url.hostname.replace(/\.$/, '');
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
