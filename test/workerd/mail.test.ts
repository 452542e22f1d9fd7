import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureZone } from '../../fixtures/dns-server.js';
import { startTestService, type TestService } from './support/service.js';

/**
 * The mail tool inside workerd (docs/mail.md, "The API"): TCP to port 25 is not allowed on
 * Workers, so each MX host reads `not_probed` with that reason, while the DNS parts (SPF, DKIM,
 * DMARC, TLS-RPT, DANE) answer over DoH; the status says the probe is
 * unavailable and why. DANE is asked over DoH (src/dns/tlsa.ts): the fixture world signs the
 * root and one domain's zone, whose answers carry the AD bit, and not the other's (a validating
 * resolver, an unsigned zone); a second world signs nothing (a resolver that does not validate).
 */

const association = '8cb0fc6c527506a053f4f14c8464bebbd6dede2738d11468dd953d7d6a3021f1';
const tlsa = [{ usage: 3, selector: 1, matchingType: 1, data: association }];

/** The zones of the domains; the resolvers below differ in whether they validate. */
const mailZones: FixtureZone[] = [
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

/** A validating resolver: the root zone is signed, so its answer about it carries AD. */
const zones: FixtureZone[] = [{ origin: '.', validated: true }, ...mailZones];

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
      // The domain's zone is not signed: the records are there, unusable for DANE.
      dane: {
        status: 'found',
        validating: true,
        hosts: [{ host: 'mx.edge-mail.net', status: 'found', authenticated: false }],
        detail: expect.stringMatching(/^the MX hosts’ zones are not signed with DNSSEC/),
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

  it('says plainly when the resolver behind DOH_URL does not validate', async () => {
    // AD on no answer, the root's included.
    const plain = await startTestService({
      zones: [{ origin: '.' }, ...mailZones.map((zone) => ({ ...zone, validated: false }))],
    });
    try {
      const response = await plain.post('/mail/v1', { domain: 'signed-edge.org' });
      expect(((await response.json()) as { dane: unknown }).dane).toMatchObject({
        status: 'found',
        validating: false,
        detail: expect.stringMatching(/^the resolver does not validate DNSSEC \(no AD bit\)/),
      });
    } finally {
      await plain.close();
    }
  });

  it('says in its status that the probe is unavailable, and why', async () => {
    const response = await service.get('/mail/v1/status');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      smtp_probe: { available: false, reason, last_connect_outcome: null },
    });
  });
});
