import { isDottedQuad, parseIpv6 } from '../../lib/index.js';
import { echo, type InputForm, inputForm } from './input-forms.js';
import { parseHostName, parseTarget, type Target } from './targets.js';

/**
 * What each kind of check asks about, read one way for the tools and the watches alike: the IP
 * check an address or a host name, the domain, mail and pool checks a host name. A watch of a kind
 * reads its target as the tool of that kind does, so a target one accepts the other accepts.
 */
export type TargetKind = 'ip' | 'domain' | 'mail' | 'pool';

/** The target a kind reads: the IP check's may be an address, every other is a name. */
export type TargetFor<K extends TargetKind> = K extends 'ip'
  ? Target
  : Extract<Target, { kind: 'domain' }>;

/** Why a text is not a target of the kind asked, and which kind takes it when another does. */
export interface TargetRefusal {
  ok: false;
  /**
   * In plain words, the caller's text repeated at most `maxEchoLength` characters: what the text
   * is, and when the same kind takes another form of it, that form (`give its host name alone,
   * example.com`).
   */
  reason: string;
  /**
   * The kind of check the text is meant for, when it is another (an address given where a domain
   * is asked: `ip`), and what to give it: the text itself or the part of it that kind reads (the
   * domain of an e-mail address); no input when it takes a part the caller must choose (one
   * address of a network). The tools name the route, a watch the kind (src/tools/common/).
   */
  use?: { kind: TargetKind; input?: string };
}

export type TargetReading<K extends TargetKind = TargetKind> =
  | {
      ok: true;
      target: TargetFor<K>;
      /**
       * How it is kept and keyed: the ASCII name, or the address (IPv6 in its RFC 5952 canonical
       * form, so every spelling of one address is one target).
       */
      text: string;
    }
  | TargetRefusal;

/** What a deployment tells every reading of a target. */
export interface TargetOptions {
  /**
   * The only zones the service's DNS knows, in a closed world such as `npm run demo`'s
   * (DNS_KNOWN_ZONES): a name outside them is refused, naming them, instead of failing later as
   * a DNS error the caller would wait out. Absent or empty: every public name.
   */
  knownZones?: readonly string[];
}

/** What each kind asks for, as a refusal says it. */
const expected: Record<TargetKind, string> = {
  ip: 'an IP address or a host name',
  domain: 'a domain name',
  mail: 'a domain name',
  pool: 'the host name of a pool',
};

/** Whether `name` is one of `zones` or a name under one (both ASCII, lower case). */
function withinZones(name: string, zones: readonly string[]): boolean {
  return zones.some((zone) => name === zone || name.endsWith(`.${zone}`));
}

/** `a, b and c`. */
function spokenList(items: readonly string[]): string {
  return items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

const isAddress = (text: string) => isDottedQuad(text) || parseIpv6(text) !== undefined;

/** `example.com`'s or `192.0.2.1`'s own word: what "give ... alone" names. */
const partName = (host: string) => (isAddress(host) ? 'address' : 'host name');

/**
 * The refusal of a text of `form` for `kind`, before any parsing: a form no kind reads as it is,
 * or one another kind reads. Undefined when the text is to be read as the kind reads a target.
 */
function misdirected(kind: TargetKind, text: string, form: InputForm): TargetRefusal | undefined {
  const shown = echo(text);
  const wanted = expected[kind];
  const takesAddress = kind === 'ip';
  const refuse = (reason: string, use?: TargetRefusal['use']): TargetRefusal => ({
    ok: false,
    reason,
    ...(use ? { use } : {}),
  });
  switch (form.form) {
    case 'empty':
      return refuse(`the value is empty: give ${wanted}`);
    case 'url':
      if (!takesAddress && isAddress(form.host)) {
        return refuse(`${shown} is a URL, not ${wanted}`, { kind: 'ip', input: form.host });
      }
      return refuse(
        `${shown} is a URL, not ${wanted}: give its ${partName(form.host)} alone, ${form.host}`,
      );
    case 'email':
      return kind === 'domain' || kind === 'mail'
        ? refuse(
            `${shown} is an e-mail address, not a domain name: give its domain, ${form.domain}`,
          )
        : refuse(`${shown} is an e-mail address, not ${wanted}`, {
            kind: 'mail',
            input: form.domain,
          });
    case 'network':
      return takesAddress
        ? refuse(`${shown} is a network, not one address: give one of its addresses`)
        : refuse(`${shown} is a network, not ${wanted}`, { kind: 'ip' });
    case 'port':
      if (!takesAddress && isAddress(form.host)) {
        return refuse(`${shown} is an IP address and a port, not ${wanted}`, {
          kind: 'ip',
          input: form.host,
        });
      }
      return refuse(
        `${shown} has a port, which no check takes: give the ${partName(form.host)} alone, ${form.host}`,
      );
    case 'bracketed':
      return takesAddress
        ? refuse(
            `${shown} is in brackets, as a URL writes an IPv6 address: give the address alone, ${form.address}`,
          )
        : refuse(`${shown} is an IP address, not ${wanted}`, { kind: 'ip', input: form.address });
    case 'address':
      return takesAddress
        ? undefined
        : refuse(`${shown} is an IP address, not ${wanted}`, { kind: 'ip', input: form.address });
    case 'name':
      return undefined;
  }
}

/**
 * The target `input` names for a check of `kind`, or why it names none: the text is recognised
 * first (`inputForm`), so an address in a domain field, a URL, an e-mail address, a network or an
 * address with its port is refused as what it is, with the form or the kind that takes it; then
 * read by the kind's rule (`parseTarget`, `parseHostName`: public, well-formed, RFC 1123).
 *
 * @example
 * targetOf('domain', '8.8.8.8')
 * // { ok: false, reason: '8.8.8.8 is an IP address, not a domain name', use: { kind: 'ip', input: '8.8.8.8' } }
 */
export function targetOf<K extends TargetKind>(
  kind: K,
  input: string,
  options: TargetOptions = {},
): TargetReading<K> {
  const refused = misdirected(kind, input, inputForm(input));
  if (refused) return refused;
  const parsed = kind === 'ip' ? parseTarget(input) : parseHostName(input);
  if (!parsed.ok) return parsed;
  const { target } = parsed;
  const known = options.knownZones ?? [];
  if (target.kind === 'domain' && known.length > 0 && !withinZones(target.name, known)) {
    return {
      ok: false,
      reason: `${echo(target.display)} is outside the DNS this service resolves in, which knows only the names under ${spokenList(known)}`,
    };
  }
  return {
    ok: true,
    target: target as TargetFor<K>,
    text: target.kind === 'domain' ? target.name : target.address,
  };
}
