import { describe, expect, it } from 'vitest';
import { isDottedQuad } from '../../../src/lib/ipv4.js';
import {
  loadZoneList,
  parseZoneList,
  type DnsblZone,
} from '../../../src/reputation/lists/zones.js';

/** Lists that closed, were parked or answer everything (docs/zone-list.md#lists-never-in-the-default-set). */
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
  // Spamhaus' allowlists: rspamd dropped them in 2016 (rspamd/rspamd#1162), nothing shows they answer.
  'swl.spamhaus.org',
  'dwl.spamhaus.org',
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
  codes: { '127.0.0.2': { meaning: 'listed', ru: 'в списке' } },
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
    const spamhaus = zones.filter((zone) => /\.spamhaus\.(org|net)$/.test(zone.zone));
    expect(spamhaus.map((zone) => zone.zone).sort()).toEqual([
      'authbl.dq.spamhaus.net',
      'dbl.spamhaus.org',
      'zen.spamhaus.org',
      'zrd.dq.spamhaus.net',
    ]);
    for (const zone of spamhaus) {
      expect(Object.keys(zone.errors ?? {}), zone.zone).toEqual(
        expect.arrayContaining(['127.255.255.252', '127.255.255.254', '127.255.255.255']),
      );
      expect(zone.dqs, zone.zone).toMatch(/^[a-z]+$/);
    }
    expect(zones.find((zone) => zone.zone === 'zen.spamhaus.org')?.dqs).toBe('zen');
    expect(
      zones.find((zone) => zone.zone === 'dbl.spamhaus.org')?.errors?.['127.0.1.255']?.meaning,
    ).toBe('IP address queried on a domain list');
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
      'dwl.dnswl.org',
      'hostkarma.junkemailfilter.com',
      'list.dnswl.org',
      'rep.mailspike.net',
      'score.senderscore.com',
    ]);
    for (const zone of graded) {
      expect(zone.type, zone.zone).toBe(zone.zone === 'dwl.dnswl.org' ? 'domain' : 'ip');
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

  it('orders IP lists by severity, allowlists last, then graded lists, then domain lists alike', () => {
    const bySeverity = { major: 0, minor: 1, info: 2 };
    const rank = (zone: DnsblZone) => {
      const allowlist = zone.allowlist ? 0.5 : 0;
      if (zone.type === 'domain') return 4 + bySeverity[zone.severity] / 10 + allowlist / 10;
      if (zone.grade) return 3;
      return bySeverity[zone.severity] + allowlist;
    };
    const ranks = zones.map(rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });
});

describe('the catalogue', () => {
  const ipLists = zones.filter((zone) => zone.type === 'ip');
  const domainLists = zones.filter((zone) => zone.type === 'domain');

  it('holds at least 40 lists: 30 for addresses and 8 for domains', () => {
    expect(zones.length).toBeGreaterThanOrEqual(40);
    expect(ipLists.length).toBeGreaterThanOrEqual(30);
    expect(domainLists.length).toBeGreaterThanOrEqual(8);
  });

  it('says of every list what it lists and on what terms, in English and Russian, with the page that says so', () => {
    for (const zone of zones) {
      expect(zone.lists, zone.zone).toEqual({ en: expect.any(String), ru: expect.any(String) });
      expect(zone.lists?.ru, zone.zone).toMatch(/[а-яё]/i);
      expect(zone.policy, zone.zone).toMatchObject({
        en: expect.any(String),
        ru: expect.any(String),
      });
      expect(zone.policy?.ru, zone.zone).toMatch(/[а-яё]/i);
      expect(zone.source, zone.zone).toMatch(/^https?:\/\//);
    }
  });

  it('gives every return code and error code its meaning in Russian too', () => {
    for (const zone of zones) {
      const meanings = [
        ...Object.values(zone.codes ?? {}),
        ...Object.values(zone.bitmask ?? {}),
        ...Object.values(zone.errors ?? {}),
      ];
      for (const meaning of meanings)
        expect(meaning.ru, `${zone.zone} ${meaning.meaning}`).toMatch(/[а-яё]/i);
    }
  });

  it('marks the allowlists, weighs none of them, and gives each of their codes a trust level', () => {
    const allowlists = zones.filter((zone) => zone.allowlist);
    expect(allowlists.map((zone) => zone.zone).sort()).toEqual([
      'dnswl.spfbl.net',
      'dwl.dnswl.org',
      'iadb.isipp.com',
      'list.dnswl.org',
      'wl.mailspike.net',
    ]);
    for (const zone of allowlists) {
      expect(zone.severity, zone.zone).toBe('info');
      expect(zone.weight, zone.zone).toBe(0);
      // DNSWL's grades carry the trust level in the last octet (grades.ts).
      if (zone.grade === undefined) {
        for (const code of Object.values(zone.codes ?? {}))
          expect(code.trust, zone.zone).toBeDefined();
      } else {
        expect(zone.grade, zone.zone).toBe('dnswl');
      }
    }
  });

  it('names the variable of every list that answers only with a key, and the name it is asked under', () => {
    const keyed = zones.filter((zone) => zone.key);
    expect(keyed.map((zone) => [zone.zone, zone.key?.variable, zone.key?.query])).toEqual([
      ['combined.mail.abusix.zone', 'ABUSIX_KEY', '{key}.combined.mail.abusix.zone'],
      ['authbl.dq.spamhaus.net', 'SPAMHAUS_DQS_KEY', '{key}.authbl.dq.spamhaus.net'],
      ['dblack.mail.abusix.zone', 'ABUSIX_KEY', '{key}.dblack.mail.abusix.zone'],
      ['zrd.dq.spamhaus.net', 'SPAMHAUS_DQS_KEY', '{key}.zrd.dq.spamhaus.net'],
    ]);
  });

  it('links the lookup pages the operators publish, with the target in place', () => {
    const lookup = (name: string) => zones.find((zone) => zone.zone === name)?.lookupUrl;
    expect(lookup('zen.spamhaus.org')).toBe(
      'https://check.spamhaus.org/listed/?searchterm={target}',
    );
    expect(lookup('bl.spamcop.net')).toBe('https://www.spamcop.net/bl.shtml?{ip}');
    expect(lookup('psbl.surriel.com')).toBe('https://psbl.org/listing?ip={ip}');
    expect(lookup('dnsbl-1.uceprotect.net')).toBe(
      'https://www.uceprotect.net/en/rblcheck.php?ipr={ip}',
    );
    expect(lookup('bl.blocklist.de')).toBe('https://www.blocklist.de/en/view.html?ip={ip}');
    expect(lookup('combined.mail.abusix.zone')).toBe('https://lookup.abusix.com/search?q={target}');
  });

  it('never documents a test answer that is an error code or outside 127.0.0.0/8', () => {
    for (const zone of zones) {
      for (const answer of [
        ...(zone.selfTest?.answers ?? []),
        ...(zone.ipv6?.selfTest?.answers ?? []),
      ]) {
        expect(zone.errors?.[answer], `${zone.zone} ${answer}`).toBeUndefined();
        expect(answer.startsWith('127.255.255.'), `${zone.zone} ${answer}`).toBe(false);
        expect(inLoopbackNet(answer), `${zone.zone} ${answer}`).toBe(true);
      }
    }
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
    const zone = { ...validZone(), codes: { '10.0.0.2': { meaning: 'listed', ru: 'в списке' } } };
    expect(() => parseZoneList([zone])).toThrow(/invalid zone list at 0\.codes/);
  });

  it('loads an entry with only what docs/DESIGN.md requires, weighting it by its severity', () => {
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
    const zone = {
      ...validZone(),
      codes: { '127.0.0.256': { meaning: 'listed', ru: 'в списке' } },
    };
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

  it('loads an entry written before the format had Russian texts, keys or allowlists', () => {
    const [zone] = parseZoneList([
      {
        ...validZone(),
        codes: { '127.0.0.2': 'listed' },
        errors: { '127.255.255.254': 'public resolver refused' },
      },
    ]);
    expect(zone?.errors?.['127.255.255.254']).toEqual({ meaning: 'public resolver refused' });
    expect(zone?.allowlist).toBeUndefined();
    expect(zone?.key).toBeUndefined();
  });

  it.each([
    [
      'a keyed query that is not the zone with the key in front',
      { key: { variable: 'ABUSIX_KEY', query: '{key}.other.example.org' } },
      /0\.key\.query: a keyed query is the zone with the key in front of it/,
    ],
    [
      'a key variable the service does not know',
      { key: { variable: 'OTHER_KEY', query: '{key}.bl.example.org' } },
      /0\.key\.variable/,
    ],
    [
      'a list keyed by SPAMHAUS_DQS_KEY outside the Data Query Service',
      { key: { variable: 'SPAMHAUS_DQS_KEY', query: '{key}.bl.example.org' } },
      /0\.key: a list keyed by SPAMHAUS_DQS_KEY is <dqs>\.dq\.spamhaus\.net/,
    ],
    [
      'a lookup page of an IP list that takes a domain',
      { lookupUrl: 'https://example.org/lookup?d={domain}' },
      /0\.lookupUrl: an ip list looks up \{ip\}, a domain list \{domain\}/,
    ],
    [
      'a lookup page without the target in it',
      { lookupUrl: 'https://example.org/lookup' },
      /0\.lookupUrl/,
    ],
    [
      'a trust level on a list that is no allowlist',
      { codes: { '127.0.0.2': { meaning: 'listed', ru: 'в списке', trust: 'high' } } },
      /0\.codes: only an allowlist code carries a trust level/,
    ],
    ['what it lists without its Russian text', { lists: { en: 'spam sources' } }, /0\.lists\.ru/],
  ])('rejects %s, naming the field', (_, change, message) => {
    expect(() => parseZoneList([{ ...validZone(), ...change }])).toThrow(message);
  });

  it('accepts an allowlist whose codes carry trust levels', () => {
    const [zone] = parseZoneList([
      {
        ...validZone(),
        allowlist: true,
        severity: 'info',
        codes: { '127.0.0.20': { meaning: 'excellent', ru: 'отличная', trust: 'high' } },
      },
    ]);
    expect(zone?.codes?.['127.0.0.20']).toEqual({
      meaning: 'excellent',
      ru: 'отличная',
      trust: 'high',
    });
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
      [
        'combined.mail.abusix.zone',
        'combined.mail.abusix.zone',
        'https://docs.abusix.com/docs/guardian-mail/production-zones',
      ],
      ['bl.spameatingmonkey.net', 'bl.ipv6.spameatingmonkey.net', 'http://spameatingmonkey.com/'],
      ['bl.nordspam.com', 'bl.nordspam.com', 'https://nordspam.com/usage'],
      ['dnsbl.spfbl.net', 'dnsbl.spfbl.net', 'https://spfbl.net/en/dnsbl/'],
      [
        'authbl.dq.spamhaus.net',
        'authbl.dq.spamhaus.net',
        'https://github.com/spamhaus/rspamd-dqs',
      ],
    ]);
  });
});
