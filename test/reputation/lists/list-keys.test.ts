import { describe, expect, it } from 'vitest';
import { askableZones, hideKeys, missingKey } from '../../../src/reputation/lists/list-keys.js';
import { loadZoneList, parseZoneList } from '../../../src/reputation/lists/zones.js';

const zones = await loadZoneList();
const keyed = (variable: string) =>
  zones.filter((zone) => zone.key?.variable === variable).map((zone) => zone.zone);
const [zrd] = parseZoneList([
  {
    zone: 'zrd.dq.spamhaus.net',
    name: 'Spamhaus ZRD',
    type: 'domain',
    severity: 'info',
    dqs: 'zrd',
    key: { variable: 'SPAMHAUS_DQS_KEY', query: '{key}.zrd.dq.spamhaus.net' },
  },
]);

describe('the lists that answer only with a key', () => {
  it('are left out while no key is configured, and every other list is kept in its order', () => {
    const asked = askableZones(zones, {});
    expect(asked.map((zone) => zone.zone)).toEqual(
      zones.filter((zone) => zone.key === undefined).map((zone) => zone.zone),
    );
    expect(asked.some((zone) => /(dq\.spamhaus\.net|abusix\.zone)$/.test(zone.zone))).toBe(false);
  });

  it('are asked once the variable they name holds a key, and only theirs', () => {
    const asked = askableZones(zones, { SPAMHAUS_DQS_KEY: 'k3yk3yk3yk3yk3yk3yk3yk3yk3' });
    const names = asked.map((zone) => zone.zone);
    expect(names).toEqual(expect.arrayContaining(keyed('SPAMHAUS_DQS_KEY')));
    expect(names.filter((name) => keyed('ABUSIX_KEY').includes(name))).toEqual([]);
    expect(asked).toHaveLength(zones.length - keyed('ABUSIX_KEY').length);
  });

  it('name the variable a list still needs, and nothing once it is set', () => {
    expect(missingKey(zrd!, {})).toBe('SPAMHAUS_DQS_KEY');
    expect(missingKey(zrd!, { ABUSIX_KEY: 'abusixkey' })).toBe('SPAMHAUS_DQS_KEY');
    expect(missingKey(zrd!, { SPAMHAUS_DQS_KEY: 'dqskey' })).toBeUndefined();
    expect(
      missingKey(
        zones.find((zone) => zone.zone === 'bl.spamcop.net')!,
        {},
      ),
    ).toBeUndefined();
  });
});

describe('hideKeys', () => {
  it('replaces every configured key with <key>, whatever its case, and nothing else', () => {
    const keys = { SPAMHAUS_DQS_KEY: 'k3yk3y', ABUSIX_KEY: 'Ab-Cd.x' };
    expect(
      hideKeys('1.K3YK3Y.zen.dq.spamhaus.net k3yk3y ab-cd.x ABxCD.X Ab-Cd.x.combined', keys),
    ).toBe('1.<key>.zen.dq.spamhaus.net <key> <key> ABxCD.X <key>.combined');
    expect(hideKeys('nothing to hide', {})).toBe('nothing to hide');
  });
});
