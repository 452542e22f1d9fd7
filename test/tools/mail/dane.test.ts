import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * DANE in the mail tool's answer on Node (docs/mail.md, "DANE"), over the wire both ways the
 * service resolves: UDP to DNS_SERVERS, and DNS_TRANSPORT=doh, where the TLSA query goes through
 * the same HTTP/2 sessions as every other query. The fixture world plays two resolvers: one that
 * validates (the root zone and one domain's zone signed, so their answers carry AD to a query
 * that asks; two domains' zones not) and one that does not (AD on no answer). The MX hosts are
 * on loopback, which no probe reaches without PROBE_ALLOW_NETWORKS: nothing connects to them.
 */

const association = '8cb0fc6c527506a053f4f14c8464bebbd6dede2738d11468dd953d7d6a3021f1';
const tlsa = [{ usage: 3, selector: 1, matchingType: 1, data: association }];
const record = { usage: 3, selector: 1, matching_type: 1, data: association };

function mailZone(origin: string, validated: boolean, withTlsa = true): FixtureZone {
  return {
    origin,
    validated,
    records: {
      [origin]: {
        TXT: ['v=spf1 -all'],
        MX: [{ exchange: `mx.${origin}`, priority: 10 }],
      },
      [`mx.${origin}`]: { A: ['127.0.0.25'] },
      ...(withTlsa ? { [`_25._tcp.mx.${origin}`]: { TLSA: tlsa } } : {}),
      [`_dmarc.${origin}`]: { TXT: ['v=DMARC1; p=reject'] },
    },
  };
}

/** A resolver that validates: the root (which mx-check.ts asks about) and one domain signed. */
const validatingWorld: FixtureZone[] = [
  { origin: '.', validated: true },
  mailZone('signed-mail.net', true),
  mailZone('unsigned-mail.net', false),
  mailZone('plain-mail.net', false, false),
];
/** A resolver that does not validate: AD on no answer, the root's included. */
const nonValidatingWorld: FixtureZone[] = [{ origin: '.' }, mailZone('unsigned-mail.net', false)];

function serviceOver(zones: FixtureZone[], transport: 'udp' | 'doh') {
  const handle = {} as { service: TestService };
  beforeAll(async () => {
    handle.service = await startTestService({ zones, transport, env: { DAILY_LIMIT: '20' } });
  });
  afterAll(() => handle.service.close());
  return handle;
}

async function daneOf(service: TestService, domain: string) {
  const response = await service.post('/mail/v1', { domain });
  expect(response.status).toBe(200);
  return ((await response.json()) as { dane: Record<string, unknown>; token: string }).dane;
}

describe.each(['udp', 'doh'] as const)('DANE over %s, from a validating resolver', (transport) => {
  const handle = serviceOver(validatingWorld, transport);

  it('reports the TLSA records of a signed zone, validating', async () => {
    expect(await daneOf(handle.service, 'signed-mail.net')).toEqual({
      status: 'found',
      validating: true,
      hosts: [
        { host: 'mx.signed-mail.net', status: 'found', authenticated: true, records: [record] },
      ],
      detail: null,
    });
  });

  it('says that the zones are not signed, not that the resolver does not validate, when only the root answers with AD', async () => {
    expect(await daneOf(handle.service, 'unsigned-mail.net')).toEqual({
      status: 'found',
      validating: true,
      hosts: [
        { host: 'mx.unsigned-mail.net', status: 'found', authenticated: false, records: [record] },
      ],
      detail:
        'the MX hosts’ zones are not signed with DNSSEC: their TLSA records cannot be used for DANE (RFC 7672 §2.2)',
    });
    expect(await daneOf(handle.service, 'plain-mail.net')).toMatchObject({
      status: 'none',
      validating: true,
      detail: expect.stringMatching(
        /^no TLSA records for the MX hosts, whose zones are not signed/,
      ),
    });
  });

  it('shows the unsigned zones on the share page, in English and Russian', async () => {
    const response = await handle.service.post('/mail/v1', { domain: 'unsigned-mail.net' });
    const { token } = (await response.json()) as { token: string };
    const page = async (lang: string) =>
      (await handle.service.get(`/mail/v1/share/${token}?lang=${lang}`)).text();
    expect(await page('en')).toContain(
      'The MX hosts’ zones are not signed with DNSSEC: their TLSA records cannot be used for DANE.',
    );
    expect(await page('ru')).toContain(
      'Зоны MX-серверов не подписаны DNSSEC: их записи TLSA для DANE использовать нельзя.',
    );
  });
});

describe.each(['udp', 'doh'] as const)(
  'DANE over %s, from a resolver that does not validate',
  (transport) => {
    const handle = serviceOver(nonValidatingWorld, transport);

    it('says plainly that the resolver does not validate: no AD bit, the root’s answer included', async () => {
      expect(await daneOf(handle.service, 'unsigned-mail.net')).toMatchObject({
        status: 'found',
        validating: false,
        hosts: [{ host: 'mx.unsigned-mail.net', status: 'found', authenticated: false }],
        detail: expect.stringMatching(/^the resolver does not validate DNSSEC \(no AD bit\)/),
      });
    });
  },
);
