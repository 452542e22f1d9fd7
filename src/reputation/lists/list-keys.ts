import type { DnsblZone, KeyVariable } from './zones.js';

/**
 * Lists that answer only with their operator's key (Spamhaus ZRD and AuthBL, Abusix Mail
 * Intelligence): the zone list names the variable each key comes from (`key.variable`), and such a
 * list is never asked while that variable is unset: it shows as `disabled`, naming the variable.
 * Asked without its key, a keyed list answers nothing useful at best and counts the querier
 * against a stranger's account at worst.
 */

/** The keys the configuration holds, by the variable each comes from. */
export type ListKeys = Partial<Record<KeyVariable, string>>;

/** The variable a keyed list still needs, or undefined when it may be asked. */
export function missingKey(zone: DnsblZone, keys: ListKeys): KeyVariable | undefined {
  if (zone.key === undefined || keys[zone.key.variable]) return undefined;
  return zone.key.variable;
}

/** The lists that may be asked with the keys at hand: every list but the keyed ones without theirs. */
export function askableZones(zones: readonly DnsblZone[], keys: ListKeys): DnsblZone[] {
  return zones.filter((zone) => missingKey(zone, keys) === undefined);
}

/** Why a keyed list is not asked, in the words every status uses (GET /lists, results). */
export function missingKeyReason(variable: KeyVariable): string {
  return `answers only with its operator's key: set ${variable} to ask it (never asked without it)`;
}

/**
 * `text` with every configured key replaced by `<key>`, whatever its case: a list may echo the
 * name it was asked (the key inside) in its TXT reason, and DNS names are case-insensitive
 * (RFC 4343), so an echo may come back in another case.
 */
export function hideKeys(text: string, keys: ListKeys): string {
  let hidden = text;
  for (const key of Object.values(keys)) {
    if (!key) continue;
    const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    hidden = hidden.replace(new RegExp(escaped, 'gi'), '<key>');
  }
  return hidden;
}
