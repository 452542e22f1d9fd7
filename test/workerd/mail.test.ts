import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureZone } from '../../fixtures/dns-server.js';
import { startTestService, type TestService } from './support/service.js';

/**
 * The mail tool inside workerd (docs/mail.md, "The API"): TCP to port 25 is not allowed on
 * Workers, so each MX host reads `not_probed` with that reason, while the DNS parts (SPF, DKIM,
 * DMARC, TLS-RPT, DANE) answer over DoH; the status says the probe is
 * unavailable and why. DANE is asked over DoH (src/dns/tlsa.ts): the fixture world signs one
 * domain's zone, whose answers carry the AD bit, and not the other's.
 */

const association = '8cb0fc6c527506a053f4f14c8464bebbd6dede2738d11468dd953d7d6a3021f1';
const tlsa = [{ usage: 3, selector: 1, matchingType: 1, data: association }];

const zones: FixtureZone[] = [
  {
    origin: 'net',
    records: {
      'edge-mail.net': {
        TXT: ['v=spf1 ip4:185.50.0.10 -all'],
        MX: [{ exchange: 'mx.edge-mail.net', priority: 10 }],
      },
      // A public address: only the runtime keeps the probe from it.
      'mx.edge-mail.net': { A: ['185.50.0.25'] },
      '_dmarc.edge-mail.net': { TXT: ['v=DMARC1; p=reject'] },
      'google._domainkey.edge-mail.net': {
        TXT: ['v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo='],
      },
      '_smtp._tls.edge-mail.net': { TXT: ['v=TLSRPTv1; rua=mailto:tls@edge-mail.net'] },
      '_25._tcp.mx.edge-mail.net': { TLSA: tlsa },
    },
  },
  {
    origin: 'signed-edge.org',
    validated: true,
    records: {
      'signed-edge.org': {
        TXT: ['v=spf1 -all'],
        MX: [
          { exchange: 'mx.signed-edge.org', priority: 10 },
          { exchange: 'mx2.signed-edge.org', priority: 20 },
        ],
      },
      'mx.signed-edge.org': { A: ['185.50.0.26'] },
      '_25._tcp.mx.signed-edge.org': { TLSA: tlsa },
      // Two MX hosts: their lookups take turns (one at a time per check on Workers).
      'mx2.signed-edge.org': { A: ['185.50.0.27'] },
    },
  },
];

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ zones });
});
afterAll(() => service.close());

const reason = 'TCP to port 25 is not allowed on Cloudflare Workers';

describe('the mail tool on Workers', () => {
  it('answers with not_probed SMTP and the DNS parts', async () => {
    const response = await service.post('/mail/v1', { domain: 'edge-mail.net' });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as Record<string, unknown>;
    expect(answer).toMatchObject({
      domain: 'edge-mail.net',
      from_cache: false,
      spf: { status: 'found' },
      dmarc: { p: 'reject' },
      dkim: { status: 'found' },
      tls_rpt: { status: 'found', rua: ['mailto:tls@edge-mail.net'] },
      mta_sts: { status: 'none' },
      // The fixture zone is not signed: the records are there, the resolver's word is not.
      dane: {
        status: 'found',
        validating: false,
        detail: expect.stringMatching(/^the resolver does not validate DNSSEC/),
      },
      mx: [
        {
          host: 'mx.edge-mail.net',
          addresses: ['185.50.0.25'],
          smtp: { status: 'not_probed', detail: reason },
        },
      ],
    });
    const stored = await service.get(`/mail/v1/${answer.token as string}`);
    expect(stored.status).toBe(200);
  });

  it('reports DANE of a validated zone as Node does, from the AD bit of the DoH answer', async () => {
    const response = await service.post('/mail/v1', { domain: 'signed-edge.org' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { dane: unknown }).dane).toEqual({
      status: 'found',
      validating: true,
      hosts: [
        {
          host: 'mx.signed-edge.org',
          status: 'found',
          authenticated: true,
          records: [{ usage: 3, selector: 1, matching_type: 1, data: association }],
        },
        { host: 'mx2.signed-edge.org', status: 'none', authenticated: true, records: [] },
      ],
      detail: null,
    });
  });

  it('says in its status that the probe is unavailable, and why', async () => {
    const response = await service.get('/mail/v1/status');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      smtp_probe: { available: false, reason, last_connect_outcome: null },
    });
  });
});
