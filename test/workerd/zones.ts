import type { FixtureZone } from '../fixtures/dns-server.js';

/** The fixture world of the workerd suites. */
export const edgeZones: FixtureZone[] = [
  {
    origin: 'example.org',
    ttl: 120,
    records: {
      'mail.example.org': {
        A: ['192.0.2.10'],
        TXT: ['v=spf1 ip4:192.0.2.10 -all'],
        MX: [{ exchange: 'mail.example.org', priority: 10 }],
      },
      'www.example.org': { CNAME: 'mail.example.org' },
    },
  },
  { origin: 'servfail.test', behaviour: 'servfail' },
];
