import { describe, expect, it } from 'vitest';
import { queriedZone } from '../../../src/reputation/index.js';

/** The rule read plainly: the longest asked-under name that is a proper suffix at a label boundary. */
function longestSuffix(zones: ReadonlyMap<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  for (const asked of zones.keys()) {
    if (lower.endsWith(`.${asked}`) && (best === undefined || asked.length > best.length)) {
      best = asked;
    }
  }
  return best === undefined ? undefined : zones.get(best);
}

const zones = new Map([
  ['zen.spamhaus.org', 'zen.spamhaus.org'],
  ['key123.zen.dq.spamhaus.net', 'zen.spamhaus.org'],
  ['spamhaus.org', 'spamhaus.org'],
  ['bl.example', 'bl.example'],
  ['example', 'example'],
  ['b.barracudacentral.org', 'b.barracudacentral.org'],
  ['dnsbl-1.uceprotect.net', 'dnsbl-1.uceprotect.net'],
]);

describe('the zone a query name falls under', () => {
  const zoneOf = queriedZone(zones);

  it('is the longest asked-under name the query ends with, at a label boundary', () => {
    expect(zoneOf('2.0.0.127.zen.spamhaus.org')).toBe('zen.spamhaus.org');
    expect(zoneOf('2.0.0.127.ZEN.Spamhaus.org')).toBe('zen.spamhaus.org');
    expect(zoneOf('2.0.0.127.key123.zen.dq.spamhaus.net')).toBe('zen.spamhaus.org');
    expect(zoneOf('2.0.0.127.sbl.spamhaus.org')).toBe('spamhaus.org');
    expect(zoneOf('2.0.0.127.bl.example')).toBe('bl.example');
    expect(zoneOf('2.0.0.127.other.example')).toBe('example');
  });

  it('is no zone for the zone itself, a name merely ending in its text, or another name', () => {
    expect(zoneOf('spamhaus.org')).toBeUndefined();
    expect(zoneOf('b.barracudacentral.org')).toBeUndefined();
    expect(zoneOf('example')).toBeUndefined();
    expect(zoneOf('2.0.0.127.xzen.spamhausorg')).toBeUndefined();
    expect(zoneOf('2.0.0.127.notspamhaus.org')).toBeUndefined();
    expect(zoneOf('2.0.0.127.dq.spamhaus.net')).toBeUndefined();
    expect(zoneOf('')).toBeUndefined();
    expect(zoneOf('.')).toBeUndefined();
  });

  it('finds the longest whatever the order the names were given in', () => {
    const reversed = queriedZone(new Map([...zones].reverse()));
    expect(reversed('2.0.0.127.zen.spamhaus.org')).toBe('zen.spamhaus.org');
    expect(reversed('2.0.0.127.bl.example')).toBe('bl.example');
  });

  it('agrees with the rule read plainly on names of every shape, IPv6 nibbles included', () => {
    // Empty labels and capitals too, and each name again with a trailing dot.
    const labels = [
      'zen',
      'spamhaus',
      'org',
      'ORG',
      '',
      'bl',
      'example',
      'dq',
      'net',
      'key123',
      'a',
      '1',
      'b',
    ];
    const ipv6 = Array.from({ length: 32 }, (_, index) => (index % 16).toString(16)).join('.');
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 2000; round++) {
      const count = 1 + (next() % 6);
      const name = Array.from({ length: count }, () => labels[next() % labels.length]).join('.');
      expect(zoneOf(name), name).toBe(longestSuffix(zones, name));
      expect(zoneOf(`${name}.`), name).toBe(longestSuffix(zones, `${name}.`));
      expect(zoneOf(`${ipv6}.${name}`), name).toBe(longestSuffix(zones, `${ipv6}.${name}`));
    }
    for (const asked of zones.keys()) {
      expect(zoneOf(`${ipv6}.${asked}`)).toBe(zones.get(asked));
    }
  });
});
