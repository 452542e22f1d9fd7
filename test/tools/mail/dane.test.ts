import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * DANE in the mail tool's answer on Node (docs/mail.md, "DANE"), over the wire both ways the
 * service resolves: UDP to DNS_SERVERS, and DNS_TRANSPORT=doh, where the TLSA query goes through
 * the same HTTP/2 sessions as every other query. The fixture world signs one domain's zone (its
 * answers carry AD to a query that asks) and not the other's. The MX hosts are on loopback,
 * which no probe reaches without PROBE_ALLOW_NETWORKS: nothing connects to them.
 */

const association = '8cb0fc6c527506a053f4f14c8464bebbd6dede2738d11468dd953d7d6a3021f1';
const tlsa = [{ usage: 3, selector: 1, matchingType: 1, data: association }];

function mailZone(origin: string, validated: boolean): FixtureZone {
  return {
    origin,
    validated,
    records: {
      [origin]: {
        TXT: ['v=spf1 -all'],
        MX: [{ exchange: `mx.${origin}`, priority: 10 }],
      },
      [`mx.${origin}`]: { A: ['127.0.0.25'] },
      [`_25._tcp.mx.${origin}`]: { TLSA: tlsa },
      [`_dmarc.${origin}`]: { TXT: ['v=DMARC1; p=reject'] },
    },
  };
}

const zones = [mailZone('signed-mail.net', true), mailZone('unsigned-mail.net', false)];

describe.each(['udp', 'doh'] as const)('DANE over %s', (transport) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ zones, transport, env: { DAILY_LIMIT: '20' } });
  });
  afterAll(() => service.close());

  async function daneOf(domain: string) {
    const response = await service.post('/mail/v1', { domain });
    expect(response.status).toBe(200);
    return ((await response.json()) as { dane: Record<string, unknown> }).dane;
  }

  it('reports the TLSA records of a validated zone, validating', async () => {
    expect(await daneOf('signed-mail.net')).toEqual({
      status: 'found',
      validating: true,
      hosts: [
        {
          host: 'mx.signed-mail.net',
          status: 'found',
          authenticated: true,
          records: [{ usage: 3, selector: 1, matching_type: 1, data: association }],
        },
      ],
      detail: null,
    });
  });

  it('says plainly that the resolver does not validate when the answer has no AD bit', async () => {
    expect(await daneOf('unsigned-mail.net')).toMatchObject({
      status: 'found',
      validating: false,
      hosts: [{ host: 'mx.unsigned-mail.net', status: 'found', authenticated: false }],
      detail: expect.stringMatching(/^the resolver does not validate DNSSEC \(no AD bit\)/),
    });
  });
});
