import { describe, expect, it } from 'vitest';
import { isDottedQuad } from '../../../src/reputation/targets/ipv4.js';
import {
  loadZoneList,
  parseZoneList,
  type DnsblZone,
} from '../../../src/reputation/lists/zones.js';

/** Lists that closed, were parked or answer everything (research: dnsbl-lists.md). */
const deadZones = [
  'sorbs.net',
  'ix.dnsbl.manitu.net',
  'bl.spamcannibal.org',
  'dnsbl.burnt-tech.com',
  'rbl.megarbl.net',
  'dynip.rothen.com',
  'dnsbl.cyberlogic.net',
  'dnsbl.inps.de',
  'bl.emailbasura.org',
  'dul.ru',
  'dnsbl.ahbl.org',
  'relays.bl.kundenserver.de',
  'ubl.unsubscore.com',
  'db.wpbl.info',
  'virbl.bit.nl',
  'wormrbl.imp.ch',
  'msrbl.net',
  'sectoor.de',
  'spam.dnsbl.anonmails.de',
  'cidr.bl.mcafee.com',
  'dnsbl.madavi.de',
  'spamdown.org',
  'spamtrap.drbl.drand.net',
  'ordb.org',
  'dsbl.org',
];

/** A zone is the dead zone itself or any zone under it (`*.sorbs.net`). */
const isUnder = (zone: string, dead: string) => zone === dead || zone.endsWith(`.${dead}`);

const inLoopbackNet = (code: string) => isDottedQuad(code) && code.startsWith('127.');

/** A valid entry to mutate in the rejection tests. */
const validZone = (): Record<string, unknown> => ({
  zone: 'bl.example.org',
  name: 'Example list',
  type: 'ip',
  severity: 'minor',
  weight: 10,
  source: 'https://example.org/usage',
  codes: { '127.0.0.2': { meaning: 'listed' } },
});

const zones: DnsblZone[] = await loadZoneList();

describe('default DNSBL zone list', () => {
  it('loads with loadZoneList and holds IP, graded and domain lists', () => {
    expect(zones.length).toBeGreaterThan(0);
    expect(zones.some((zone) => zone.type === 'ip' && zone.codes)).toBe(true);
    expect(zones.some((zone) => zone.grade)).toBe(true);
    expect(zones.some((zone) => zone.type === 'domain')).toBe(true);
  });

  it('names every zone only once', () => {
    const names = zones.map((zone) => zone.zone);
    expect(new Set(names).size).toBe(names.length);
  });

  it('contains none of the dead or wildcarding lists', () => {
    const dead = zones.filter((zone) => deadZones.some((name) => isUnder(zone.zone, name)));
    expect(dead.map((zone) => zone.zone)).toEqual([]);
  });

  it('keeps every return code and error code inside 127.0.0.0/8', () => {
    for (const zone of zones) {
      for (const code of [...Object.keys(zone.codes ?? {}), ...Object.keys(zone.errors ?? {})]) {
        expect(inLoopbackNet(code), `${zone.zone} ${code}`).toBe(true);
      }
    }
  });

  it('never documents a code as both a listing and an error', () => {
    for (const zone of zones) {
      const both = Object.keys(zone.codes ?? {}).filter((code) => zone.errors?.[code]);
      expect(both, zone.zone).toEqual([]);
    }
  });

  it('gives the Spamhaus zones the 127.255.255.x errors and a DQS label', () => {
    const spamhaus = zones.filter((zone) => zone.zone.endsWith('.spamhaus.org'));
    expect(spamhaus.map((zone) => zone.zone).sort()).toEqual([
      'dbl.spamhaus.org',
      'zen.spamhaus.org',
    ]);
    for (const zone of spamhaus) {
      expect(Object.keys(zone.errors ?? {}), zone.zone).toEqual(
        expect.arrayContaining(['127.255.255.252', '127.255.255.254', '127.255.255.255']),
      );
      expect(zone.dqs, zone.zone).toMatch(/^[a-z]+$/);
    }
    expect(zones.find((zone) => zone.zone === 'zen.spamhaus.org')?.dqs).toBe('zen');
    expect(zones.find((zone) => zone.zone === 'dbl.spamhaus.org')?.errors?.['127.0.1.255']).toBe(
      'IP address queried on a domain list',
    );
  });

  it('reads Spamhaus PBL as information, not as a listing worth a major penalty', () => {
    const zen = zones.find((zone) => zone.zone === 'zen.spamhaus.org');
    for (const code of ['127.0.0.10', '127.0.0.11']) {
      expect(zen?.codes?.[code]?.severity, code).toBe('info');
      expect(zen?.codes?.[code]?.weight, code).toBeLessThanOrEqual(5);
    }
  });

  it('grades the reputation lists with no weight of their own', () => {
    const graded = zones.filter((zone) => zone.grade);
    expect(graded.map((zone) => zone.zone).sort()).toEqual([
      'hostkarma.junkemailfilter.com',
      'list.dnswl.org',
      'rep.mailspike.net',
      'score.senderscore.com',
    ]);
    for (const zone of graded) {
      expect(zone.type, zone.zone).toBe('ip');
      expect(zone.severity, zone.zone).toBe('info');
      expect(zone.weight, zone.zone).toBe(0);
    }
  });

  it('uses bitmasks only for SURBL and URIBL, with their published test entries', () => {
    const bitmasked = zones.filter((zone) => zone.bitmask);
    expect(bitmasked.map((zone) => zone.zone).sort()).toEqual([
      'multi.surbl.org',
      'multi.uribl.com',
    ]);
    const testEntry = (name: string) => zones.find((zone) => zone.zone === name)?.selfTest?.listed;
    expect(testEntry('multi.surbl.org')).toBe('test.surbl.org');
    expect(testEntry('multi.uribl.com')).toBe('test.uribl.com');
    expect(testEntry('dbl.spamhaus.org')).toBe('dbltest.com');
  });

  it('orders IP lists by severity, then graded lists, then domain lists', () => {
    const rank = (zone: DnsblZone) => {
      if (zone.type === 'domain') return 4;
      if (zone.grade) return 3;
      return { major: 0, minor: 1, info: 2 }[zone.severity];
    };
    const ranks = zones.map(rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });
});

describe('parseZoneList', () => {
  it('accepts a minimal valid entry', () => {
    expect(parseZoneList([validZone()])).toHaveLength(1);
  });

  it('rejects a zone with both codes and a grade, naming the entry', () => {
    const zone = { ...validZone(), grade: 'dnswl' };
    expect(() => parseZoneList([validZone(), zone])).toThrow(
      /invalid zone list at 1: .*at most one of codes, bitmask or grade/,
    );
  });

  it('rejects a return code outside 127.0.0.0/8, naming the entry and its codes', () => {
    const zone = { ...validZone(), codes: { '10.0.0.2': { meaning: 'listed' } } };
    expect(() => parseZoneList([zone])).toThrow(/invalid zone list at 0\.codes/);
  });

  it('loads an entry with only what DESIGN.md requires, weighting it by its severity', () => {
    const [zone] = parseZoneList([
      { zone: 'bl.other-list.net', type: 'ip', name: 'Other list', severity: 'minor', delist: 'x' },
    ]);
    expect(zone).toMatchObject({ zone: 'bl.other-list.net', weight: 10 });
    expect(zone?.codes).toBeUndefined();
  });

  it('accepts a code meaning written as a bare string', () => {
    const [zone] = parseZoneList([{ ...validZone(), codes: { '127.0.0.2': 'SBL' } }]);
    expect(zone?.codes?.['127.0.0.2']).toEqual({ meaning: 'SBL' });
  });

  it('rejects a return code with an octet over 255, naming the entry', () => {
    const zone = { ...validZone(), codes: { '127.0.0.256': { meaning: 'listed' } } };
    expect(() => parseZoneList([zone])).toThrow(/invalid zone list at 0\.codes/);
  });

  it('rejects an entry without a severity, naming the field', () => {
    const zone: Record<string, unknown> = validZone();
    delete zone.severity;
    expect(() => parseZoneList([validZone(), validZone(), zone])).toThrow(
      /invalid zone list at 2\.severity/,
    );
  });

  it('accepts an IPv6 side with its source, its own zone and test entries in any RFC 4291 form', () => {
    const [zone] = parseZoneList([
      {
        ...validZone(),
        ipv6: {
          source: 'https://example.org/ipv6',
          zone: 'bl.ipv6.example.org',
          selfTest: { listed: '::FFFF:7F00:2', notListed: '0:0:0:0:0:ffff:7f00:1' },
        },
      },
    ]);
    expect(zone?.ipv6).toMatchObject({ zone: 'bl.ipv6.example.org' });
  });

  it.each([
    ['without the page that documents it', { zone: 'bl.ipv6.example.org' }, /0\.ipv6\.source/],
    [
      'whose test entry is no IPv6 address',
      { source: 'https://example.org/ipv6', selfTest: { listed: '127.0.0.2' } },
      /0\.ipv6\.selfTest\.listed/,
    ],
    [
      'whose zone is not a lowercase zone name',
      { source: 'https://example.org/ipv6', zone: 'BL.IPv6' },
      /0\.ipv6\.zone/,
    ],
  ])('rejects an IPv6 side %s', (_, ipv6, message) => {
    expect(() => parseZoneList([{ ...validZone(), ipv6 }])).toThrow(message);
  });

  it('rejects an IPv6 side on a domain list', () => {
    const zone = { ...validZone(), type: 'domain', ipv6: { source: 'https://example.org/ipv6' } };
    expect(() => parseZoneList([zone])).toThrow(/only an ip list answers for IPv6 addresses/);
  });
});

describe('the lists that cover IPv6', () => {
  it('are the ones whose operators document it, each with that page', async () => {
    const covering = (await loadZoneList()).filter((zone) => zone.ipv6 !== undefined);
    expect(
      covering.map((zone) => [zone.zone, zone.ipv6?.zone ?? zone.zone, zone.ipv6?.source]),
    ).toEqual([
      [
        'zen.spamhaus.org',
        'zen.spamhaus.org',
        'https://www.spamhaus.org/organization/statement/012/spamhaus-ipv6-blocklists-strategy-statement',
      ],
      ['bl.spameatingmonkey.net', 'bl.ipv6.spameatingmonkey.net', 'http://spameatingmonkey.com/'],
    ]);
  });
});
