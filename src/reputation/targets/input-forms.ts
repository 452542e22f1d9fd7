import { isDottedQuad, parseIpv6 } from '../../lib/index.js';

/**
 * What a caller typed, recognised before it is read as the target of one kind of check: the forms
 * people paste into the wrong field (an address where a domain is asked, a URL, an e-mail address,
 * a network, an address with its port), so that the refusal can say what it is and which form or
 * tool takes it, instead of "is not a valid host name".
 */
export type InputForm =
  | { form: 'empty' }
  /** `https://mail.example.com/x`, `example.com/path`: `host` is the URL's host. */
  | { form: 'url'; host: string }
  /** `postmaster@example.com` or `mailto:` it: `domain` is what follows the @. */
  | { form: 'email'; domain: string }
  /** `192.0.2.0/24`, `2001:db8::/32`: an address and a prefix length. */
  | { form: 'network' }
  /** `192.0.2.1:25`, `[2001:db8::1]:25`, `mx.example.com:25`: `host` without the port. */
  | { form: 'port'; host: string }
  /** `[2001:db8::1]`, an IPv6 address as a URL writes it (RFC 3986 §3.2.2). */
  | { form: 'bracketed'; address: string }
  /** An IPv4 dotted quad or an IPv6 address in any RFC 4291 §2.2 form, public or not. */
  | { form: 'address'; address: string }
  /** Anything else: read as a host name by the rules of targets.ts. */
  | { form: 'name' };

const scheme = /^[a-z][a-z0-9+.-]*:\/\//i;
const emailAddress = /^(?:mailto:)?[^@\s/]+@([^@\s/]+)$/i;
const network = /^([0-9a-f:.]+)\/\d{1,3}$/i;
/** A host of letters, digits, dots and hyphens with a dot in it: `example.com/path` is a URL. */
const hostAndPath = /^([a-z0-9-]+(?:\.[a-z0-9-]+)+)\.?\/\S*$/i;
const ipv4AndPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
const ipv6AndPort = /^\[([0-9a-f:.]+)\]:\d{1,5}$/i;
const nameAndPort = /^([a-z0-9-]+(?:\.[a-z0-9-]+)+)\.?:\d{1,5}$/i;
const bracketed = /^\[([0-9a-f:.]+)\]$/i;

const isAddress = (text: string) => isDottedQuad(text) || parseIpv6(text) !== undefined;

/** The host of a URL as it was written (brackets of an IPv6 literal removed), or undefined. */
function urlHost(text: string): string | undefined {
  try {
    const host = new URL(text).hostname;
    return host === '' ? undefined : host.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return undefined;
  }
}

/** The form of `input` (white space around it does not count). */
export function inputForm(input: string): InputForm {
  const text = input.trim();
  if (text === '') return { form: 'empty' };
  const email = emailAddress.exec(text);
  if (email) return { form: 'email', domain: email[1]!.toLowerCase().replace(/\.$/, '') };
  if (scheme.test(text)) {
    const host = urlHost(text);
    if (host !== undefined) return { form: 'url', host };
  }
  const prefixed = network.exec(text);
  if (prefixed && isAddress(prefixed[1]!)) return { form: 'network' };
  const pathAfterHost = hostAndPath.exec(text);
  if (pathAfterHost) return { form: 'url', host: pathAfterHost[1]!.toLowerCase() };
  const addressWithPort = ipv4AndPort.exec(text) ?? ipv6AndPort.exec(text);
  if (addressWithPort && isAddress(addressWithPort[1]!)) {
    return { form: 'port', host: addressWithPort[1]!.toLowerCase() };
  }
  const hostWithPort = nameAndPort.exec(text);
  if (hostWithPort) return { form: 'port', host: hostWithPort[1]!.toLowerCase() };
  const inBrackets = bracketed.exec(text);
  if (inBrackets && parseIpv6(inBrackets[1]!) !== undefined) {
    return { form: 'bracketed', address: inBrackets[1]! };
  }
  if (isAddress(text)) return { form: 'address', address: text };
  return { form: 'name' };
}

/** How long an echo of the caller's text may be: a refusal never repeats a long input whole. */
export const maxEchoLength = 64;

/**
 * The caller's text as a refusal repeats it: trimmed, and clipped to `maxEchoLength` characters
 * with an ellipsis, so a 300-character name is not sent back whole.
 */
export function echo(input: string): string {
  const text = input.trim();
  return text.length <= maxEchoLength ? text : `${text.slice(0, maxEchoLength - 1)}…`;
}
