/**
 * Special-use names that never resolve in public DNS: RFC 6761 (localhost, invalid, test,
 * example), RFC 6762 (local), RFC 8375 (home.arpa), RFC 7686 (onion), RFC 9476 (alt), the
 * `internal` TLD ICANN reserved for private use, `arpa` (reverse-mapping infrastructure, not a
 * sender), and names widely used on private networks.
 */
const nonPublicSuffixes = [
  'localhost',
  'local',
  'internal',
  'home.arpa',
  'arpa',
  'invalid',
  'test',
  'example',
  'onion',
  'alt',
  'lan',
  'intranet',
  'corp',
  'private',
  'localdomain',
];

/**
 * The special-use suffix `name` (lowercase, without the root dot) lies under, `name` itself
 * included (`corp` for `mail.corp`, `home.arpa` for `home.arpa`); undefined for any other name.
 */
export function specialUseSuffix(name: string): string | undefined {
  return nonPublicSuffixes.find((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/**
 * Whether `name` (lowercase, without the root dot) is a single label or lies under a special-use
 * suffix: a name the service never asks its resolvers about, wherever it comes from (a caller, an
 * SPF term, an MX or NS record, a CNAME), because on the service's own network it may well exist.
 */
export function isSpecialUseName(name: string): boolean {
  if (!name.includes('.')) return true;
  return specialUseSuffix(name) !== undefined;
}
