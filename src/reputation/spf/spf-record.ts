import ipaddr from 'ipaddr.js';
import { ipv4ToNumber, isDottedQuad, numberToIpv4 } from '../../lib/index.js';

/**
 * SPF record text (RFC 7208), with no DNS: picking a domain's one SPF record out of its TXT
 * records (§4.5) and parsing it into the terms the evaluator in `spf.ts` walks (§4.6, §5, §6).
 */

export type Qualifier = '+' | '-' | '~' | '?';

/**
 * A domain-spec (§4.6.1): a plain name (lowercase, no root dot), or a macro-string (§7) kept as
 * written, since expanding it needs the connecting client, the sender or the HELO name.
 */
export type DomainSpec = { macro: false; name: string } | { macro: true; text: string };

interface Term {
  /** The term as written in the record, for reports. */
  text: string;
  qualifier: Qualifier;
}

export type SpfMechanism =
  | (Term & { kind: 'all' })
  | (Term & { kind: 'include' | 'exists'; target: DomainSpec })
  /**
   * `target` null is the domain of the record itself (§5.3, §5.4); `ip4Prefix` 32 and `ip6Prefix`
   * 128 when absent (§5.6 dual-cidr-length).
   */
  | (Term & { kind: 'a' | 'mx'; target: DomainSpec | null; ip4Prefix: number; ip6Prefix: number })
  | (Term & { kind: 'ptr'; target: DomainSpec | null })
  /** `network` normalised: host bits cleared, `/32` (`/128`) dropped. */
  | (Term & { kind: 'ip4' | 'ip6'; network: string });

export interface SpfRedirect {
  text: string;
  target: DomainSpec;
}

/** The terms that matter for sender discovery; `exp=` and unknown modifiers are dropped (§6). */
export interface ParsedSpfRecord {
  mechanisms: SpfMechanism[];
  redirect: SpfRedirect | null;
}

export type SpfParse =
  | { ok: true; record: ParsedSpfRecord }
  /** `term` is the offending term, or null when the record as a whole is wrong. */
  | { ok: false; term: string | null; reason: string };

export type SpfRecordSelection =
  | { status: 'none' }
  | { status: 'found'; record: string }
  | { status: 'multiple'; records: string[] };

/**
 * §4.5: only TXT records that begin with the version section `v=spf1`, followed by a space or the
 * end of the record, are SPF records (`v=spf10` is not). ABNF literals are case-insensitive
 * (RFC 5234 §2.3), so `V=SPF1` counts.
 */
const spfVersion = /^v=spf1(?: |$)/i;

/** §4.5: none is `none`; more than one is a permerror, whatever they say. */
export function selectSpfRecord(txtRecords: readonly string[]): SpfRecordSelection {
  const records = txtRecords.filter((text) => spfVersion.test(text));
  const [record] = records;
  if (record === undefined) return { status: 'none' };
  return records.length === 1 ? { status: 'found', record } : { status: 'multiple', records };
}

/** An IPv4 network as `a.b.c.d/len` with the host bits cleared, or the bare address for a /32. */
export function ip4Network(address: string, prefix: number): string {
  if (prefix === 32) return address;
  const size = 2 ** (32 - prefix);
  return `${numberToIpv4(Math.floor(ipv4ToNumber(address) / size) * size)}/${prefix}`;
}

/**
 * An IPv6 network as `address/len` with the host bits cleared, or the bare address for a /128,
 * in RFC 5952 canonical form.
 */
export function ip6Network(address: string, prefix: number): string {
  if (prefix === 128) return ipaddr.IPv6.parse(address).toRFC5952String();
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${address}/${prefix}`) as ipaddr.IPv6;
  return `${network.toRFC5952String()}/${prefix}`;
}

/** Thrown inside the parser only; `parseSpfRecord` turns it into its result. */
class SpfSyntaxError extends Error {}

/**
 * §7.1 macro-string: literals are visible ASCII except `%`; `%%`, `%_` and `%-` are escapes; an
 * expand is `%{` letter, digits, an optional `r`, delimiters `}`. §7.2: the letters c, r and t
 * belong to `exp` text only, so a domain-spec may not use them.
 */
const domainSpecMacroString = /^(?:%\{[slodiphv]\d*r?[.\-+,/_=]*\}|%[%_-]|[\x21-\x24\x26-\x7e])+$/i;
const anyMacroString = /^(?:%\{[slodiphcrtv]\d*r?[.\-+,/_=]*\}|%[%_-]|[\x21-\x24\x26-\x7e])*$/i;

/**
 * §4.6.1 domain-end: the last label is a toplabel, alphanumeric with a letter (or with inner
 * hyphens), so an address such as `192.0.2.1` is never taken for a name. §4.3: no empty label,
 * none over 63 octets, at least two labels.
 */
const toplabel = /^(?:[a-z0-9]*[a-z][a-z0-9]*|[a-z0-9]+-[a-z0-9-]*[a-z0-9])$/i;

function isDomainName(name: string): boolean {
  const labels = name.split('.');
  const last = labels.at(-1) ?? '';
  return (
    name.length <= 253 &&
    labels.length >= 2 &&
    labels.every((label) => label.length >= 1 && label.length <= 63) &&
    toplabel.test(last)
  );
}

function domainSpec(text: string): DomainSpec {
  if (!domainSpecMacroString.test(text)) throw new SpfSyntaxError(`invalid domain-spec "${text}"`);
  if (text.includes('%')) return { macro: true, text };
  const name = text.replace(/\.$/, '').toLowerCase();
  if (!isDomainName(name)) throw new SpfSyntaxError(`invalid domain name "${text}"`);
  return { macro: false, name };
}

/** §5.6: `/` then a decimal number without leading zeros, at most 32 (IPv4) or 128 (IPv6). */
function cidrLength(digits: string | undefined, max: 32 | 128): number {
  if (digits === undefined) return max;
  if (!/^(?:0|[1-9]\d*)$/.test(digits) || Number(digits) > max) {
    throw new SpfSyntaxError(`invalid CIDR length /${digits}`);
  }
  return Number(digits);
}

/** §5.3, §5.4: `[":" domain-spec] [dual-cidr-length]`, e.g. `:example.com/24//64` or `//64`. */
const domainAndDualCidr = /^(?::(.+?))?(?:\/(\d+))?(?:\/\/(\d+))?$/;
/** §5.6: `":" network ["/" length]`. */
const networkAndCidr = /^:([^/]+)(?:\/(\d+))?$/;

function parseMechanism(term: Term, name: string, rest: string): SpfMechanism {
  switch (name) {
    case 'all':
      if (rest !== '') break;
      return { ...term, kind: 'all' };
    case 'include':
    case 'exists':
      if (!rest.startsWith(':')) break;
      return { ...term, kind: name, target: domainSpec(rest.slice(1)) };
    case 'ptr':
      if (rest !== '' && !rest.startsWith(':')) break;
      return { ...term, kind: 'ptr', target: rest === '' ? null : domainSpec(rest.slice(1)) };
    case 'a':
    case 'mx': {
      const parts = domainAndDualCidr.exec(rest);
      if (!parts) break;
      const [, target, ip4Length, ip6Length] = parts;
      return {
        ...term,
        kind: name,
        target: target === undefined ? null : domainSpec(target),
        ip4Prefix: cidrLength(ip4Length, 32),
        ip6Prefix: cidrLength(ip6Length, 128),
      };
    }
    case 'ip4': {
      const [, address = '', length] = networkAndCidr.exec(rest) ?? [];
      if (!isDottedQuad(address)) throw new SpfSyntaxError(`invalid IPv4 network "${rest}"`);
      return { ...term, kind: 'ip4', network: ip4Network(address, cidrLength(length, 32)) };
    }
    case 'ip6': {
      const [, address = '', length] = networkAndCidr.exec(rest) ?? [];
      // ipaddr.js accepts a zone index (`fe80::1%eth0`); RFC 4291 §2.2 text forms have none.
      if (!ipaddr.IPv6.isValid(address) || address.includes('%')) {
        throw new SpfSyntaxError(`invalid IPv6 network "${rest}"`);
      }
      return { ...term, kind: 'ip6', network: ip6Network(address, cidrLength(length, 128)) };
    }
    default:
      // §5: a mechanism the record's reader does not know is a permerror, not something to skip.
      throw new SpfSyntaxError(`unknown mechanism "${name}"`);
  }
  throw new SpfSyntaxError(`malformed "${name}" mechanism`);
}

/** §4.6.1: `name "=" macro-string`; a name starts with a letter. */
const modifierSyntax = /^([a-z][a-z0-9_.-]*)=(.*)$/i;
/** §4.6.1, §4.6.2: `[qualifier] mechanism`; mechanism names are case-insensitive. */
const directiveSyntax = /^([+\-~?]?)([a-z][a-z0-9]*)(.*)$/i;

/**
 * Parses an SPF record (§4.6). Any syntax error anywhere makes the whole record a permerror
 * before any of it is evaluated (§4.6), so a record either parses completely or not at all.
 *
 * @example
 * parseSpfRecord('v=spf1 a/24 include:_spf.example.com -all')
 * // { ok: true, record: { mechanisms: [a, include, all], redirect: null } }
 */
export function parseSpfRecord(record: string): SpfParse {
  if (!spfVersion.test(record)) return { ok: false, term: null, reason: 'not a v=spf1 record' };
  // §4.6.1: terms are separated by one or more spaces; trailing spaces are allowed.
  const terms = record.split(' ').slice(1).filter(Boolean);
  const mechanisms: SpfMechanism[] = [];
  let redirect: SpfRedirect | null = null;
  const modifiersSeen = new Set<string>();
  for (const text of terms) {
    try {
      const modifier = modifierSyntax.exec(text);
      if (modifier) {
        const [, name = '', value = ''] = modifier;
        const key = name.toLowerCase();
        if (key !== 'redirect' && key !== 'exp') {
          // §6: unknown modifiers are ignored, but must still be well-formed macro-strings.
          if (!anyMacroString.test(value)) throw new SpfSyntaxError('invalid modifier value');
          continue;
        }
        // §6: redirect and exp may each appear at most once.
        if (modifiersSeen.has(key)) throw new SpfSyntaxError(`"${key}" appears more than once`);
        modifiersSeen.add(key);
        const target = domainSpec(value);
        // §6.2: exp only explains a fail to the sender; it names no sender, so it is dropped.
        if (key === 'redirect') redirect = { text, target };
        continue;
      }
      const directive = directiveSyntax.exec(text);
      if (!directive) throw new SpfSyntaxError('neither a mechanism nor a modifier');
      const [, qualifier = '', name = '', rest = ''] = directive;
      // §4.6.2: a missing qualifier means "+".
      const term: Term = { text, qualifier: (qualifier || '+') as Qualifier };
      mechanisms.push(parseMechanism(term, name.toLowerCase(), rest));
    } catch (error) {
      if (error instanceof SpfSyntaxError) return { ok: false, term: text, reason: error.message };
      throw error;
    }
  }
  return { ok: true, record: { mechanisms, redirect } };
}
