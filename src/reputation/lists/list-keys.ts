import type { DnsblZone, KeyVariable } from './zones.js';

/**
 * Lists that answer only with their operator's key (Spamhaus ZRD and AuthBL, Abusix Mail
 * Intelligence): the zone list names the variable each key comes from (`key.variable`), and such a
 * list is never asked while that variable is unset. Asked without its key, a keyed list answers
 * nothing useful at best and counts the querier against a stranger's account at worst.
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
