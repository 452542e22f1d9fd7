import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureZone } from '../../fixtures/dns-server.js';
import { startTestService, type TestService } from './support/service.js';

/**
 * The mail tool inside workerd (docs/mail.md, "The API"): TCP to port 25 is not allowed on
 * Workers, so each MX host reads `not_probed` with that reason, while the DNS parts (SPF, DKIM,
 * DMARC, TLS-RPT) answer over DoH; DANE is not checked there; the status says the probe is
 * unavailable and why.
 */

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
      dane: { status: 'not_checked' },
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

  it('says in its status that the probe is unavailable, and why', async () => {
    const response = await service.get('/mail/v1/status');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      smtp_probe: { available: false, reason, last_connect_outcome: null },
    });
  });
});
