import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import { loadZoneList } from '../../../src/reputation/lists/zones.js';
import {
  expectError,
  postError,
  startTestService,
  type TestService,
} from '../../support/service.js';
import { createInbox, send } from './support.js';

/**
 * Creating and verifying inboxes over real HTTP against the real app (docs/reports.md, "API"):
 * the address under REPORTS_ADDRESS, the records to publish built from what the fixture DNS
 * world publishes, the RFC 7489 §7.1 authorization, verification at creation, on verify and by
 * the operator's token, and the refusals that charge nothing.
 */

const mailbox = 'dmarc@reports.example.org';
const operatorToken = 'operator-token-0123456789';
const idPattern = /^[A-Za-z0-9_-]{22}$/;

const zones: FixtureZone[] = [
  {
    origin: 'reports-fixture.net',
    records: {
      '_dmarc.reports-fixture.net': {
        TXT: [
          'v=DMARC1; p=quarantine; pct=50; rua=mailto:agg@dmarc.vendor-fixture.com!10m, mailto:dmarc@reports-fixture.net; fo=1',
        ],
      },
      '_smtp._tls.reports-fixture.net': { TXT: ['v=TLSRPTv1; rua=mailto:tls@reports-fixture.net'] },
    },
  },
  {
    origin: 'parent-fixture.net',
    records: {
      '_dmarc.parent-fixture.net': {
        TXT: ['v=DMARC1; p=reject; sp=quarantine; adkim=s; rua=mailto:d@parent-fixture.net'],
      },
    },
  },
  { origin: 'bare-fixture.org', records: { 'bare-fixture.org': { A: ['8.8.100.40'] } } },
  {
    origin: 'example.org',
    records: {
      'reports-fixture.net._report._dmarc.reports.example.org': { TXT: ['v=DMARC1'] },
    },
  },
];

let world: FixtureZone[];
let service: TestService;

beforeAll(async () => {
  world = [...dnsblWorld(await loadZoneList(), {}), ...zones];
  service = await startTestService({
    world,
    env: { REPORTS_ADDRESS: mailbox, OPERATOR_TOKEN: operatorToken },
  });
});
afterAll(() => service.close());

async function remaining(): Promise<number> {
  const response = await send(service, 'POST', '/reports/v1', { body: { domain: 'x' } });
  return ((await response.json()) as { dailyRemaining: number }).dailyRemaining;
}

describe('POST /reports/v1', () => {
  it('answers 201 with the inbox, its key once, its address and view link, and the quota', async () => {
    const before = await remaining();
    const inbox = await createInbox(service, { domain: 'Reports-Fixture.NET.' });
    expect(inbox).toMatchObject({
      id: expect.stringMatching(idPattern),
      domain: 'reports-fixture.net',
      key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      view_url: expect.stringMatching(
        new RegExp(`^${service.url('/reports/v1/view/')}[A-Za-z0-9_-]{22}$`),
      ),
      lang: 'en',
      verified: false,
      dailyRemaining: before - 1,
    });
    expect(inbox.address).toBe(`dmarc+${inbox.id}@reports.example.org`);
  });

  it('suggests the DMARC record with the address added to rua, every other tag and destination kept', async () => {
    const inbox = await createInbox(service, { domain: 'reports-fixture.net' });
    expect(inbox.suggested?.dmarc).toEqual({
      name: '_dmarc.reports-fixture.net',
      type: 'TXT',
      current:
        'v=DMARC1; p=quarantine; pct=50; rua=mailto:agg@dmarc.vendor-fixture.com!10m, mailto:dmarc@reports-fixture.net; fo=1',
      value: `v=DMARC1; p=quarantine; pct=50; rua=mailto:agg@dmarc.vendor-fixture.com!10m,mailto:dmarc@reports-fixture.net,mailto:${inbox.address}; fo=1`,
      change: 'update',
      detail: null,
    });
    expect(inbox.suggested?.tls_rpt).toMatchObject({
      name: '_smtp._tls.reports-fixture.net',
      value: `v=TLSRPTv1; rua=mailto:tls@reports-fixture.net,mailto:${inbox.address}`,
      change: 'update',
    });
  });

  it('suggests new records for a domain that publishes none: p=none, the address as rua', async () => {
    const inbox = await createInbox(service, { domain: 'bare-fixture.org' });
    expect(inbox.suggested?.dmarc).toMatchObject({
      current: null,
      value: `v=DMARC1; p=none; rua=mailto:${inbox.address}`,
      change: 'create',
    });
    expect(inbox.suggested?.tls_rpt).toMatchObject({
      current: null,
      value: `v=TLSRPTv1; rua=mailto:${inbox.address}`,
      change: 'create',
    });
  });

  it('keeps the policy a subdomain follows now when it has no record of its own', async () => {
    const inbox = await createInbox(service, { domain: 'shop.parent-fixture.net' });
    // The organisational domain's sp=quarantine applies to it: the new record keeps it.
    expect(inbox.suggested?.dmarc).toMatchObject({
      name: '_dmarc.shop.parent-fixture.net',
      current: null,
      value: `v=DMARC1; p=quarantine; adkim=s; rua=mailto:d@parent-fixture.net,mailto:${inbox.address}`,
      change: 'create',
    });
  });

  it('says the report address authorises the domain when its _report._dmarc record is there', async () => {
    const inbox = await createInbox(service, { domain: 'reports-fixture.net' });
    expect(inbox.authorization).toEqual({
      needed: true,
      authorized: true,
      record: {
        name: 'reports-fixture.net._report._dmarc.reports.example.org',
        type: 'TXT',
        value: 'v=DMARC1',
      },
      wildcard: '*._report._dmarc.reports.example.org',
      detail: expect.stringContaining('takes reports-fixture.net’s reports'),
    });
  });

  it('names the record the report address’s operator must publish when it is not there', async () => {
    const inbox = await createInbox(service, { domain: 'bare-fixture.org' });
    expect(inbox.authorization).toMatchObject({
      needed: true,
      authorized: false,
      record: { name: 'bare-fixture.org._report._dmarc.reports.example.org', value: 'v=DMARC1' },
    });
    expect(inbox.authorization?.detail).toContain(
      'bare-fixture.org._report._dmarc.reports.example.org',
    );
  });

  it('counts a wildcard authorization (RFC 4592) at the report address’s domain', async () => {
    await service.dns.setZones([
      ...world,
      { origin: '_report._dmarc.reports.example.org', wildcard: { TXT: ['v=DMARC1;'] } },
    ]);
    const inbox = await createInbox(service, { domain: 'bare-fixture.org' });
    expect(inbox.authorization).toMatchObject({ needed: true, authorized: true });
    await service.dns.setZones(world);
  });

  it('needs no authorization when the address is within the domain’s organisational domain', async () => {
    const inbox = await createInbox(service, { domain: 'mail.example.org' });
    expect(inbox.authorization).toMatchObject({ needed: false, authorized: true, record: null });
  });

  it('is verified at once when created with the operator’s token', async () => {
    const plain = await createInbox(service, { domain: 'bare-fixture.org' });
    expect(plain.verified).toBe(false);
    const operator = await createInbox(
      service,
      { domain: 'bare-fixture.org' },
      { authorization: `Bearer ${operatorToken}` },
    );
    expect(operator.verified).toBe(true);
    const other = await createInbox(
      service,
      { domain: 'bare-fixture.org' },
      { authorization: 'Bearer not-the-operator-token-42' },
    );
    expect(other.verified).toBe(false);
  });

  it.each([
    ['', 'empty'],
    ['10.0.0.1', 'an address'],
    ['localhost', 'a special-use name'],
    ['intranet.corp', 'a special-use suffix'],
    ['co.uk', 'a public suffix'],
    ['exa mple.com', 'not a host name'],
  ])('refuses %j (%s) with 400 invalid_target, charging nothing', async (domain) => {
    const before = await remaining();
    const response = await send(service, 'POST', '/reports/v1', { body: { domain } });
    await expectError(response, 400, postError('invalid_target'));
    expect(await remaining()).toBe(before);
  });

  it('refuses a body without a domain with 400 invalid_request, and one not JSON with 415', async () => {
    await expectError(
      await send(service, 'POST', '/reports/v1', { body: { lang: 'en' } }),
      400,
      postError('invalid_request'),
    );
    await expectError(
      await send(service, 'POST', '/reports/v1', {
        raw: { bytes: 'domain=a.net', type: 'application/x-www-form-urlencoded' },
      }),
      415,
      postError('unsupported_media_type'),
    );
  });
});

describe('POST /reports/v1/{id}/verify', () => {
  it('verifies the inbox once the domain’s DMARC record names its address, and keeps it so', async () => {
    const inbox = await createInbox(service, { domain: 'bare-fixture.org' });
    const before = await send(service, 'POST', `/reports/v1/${inbox.id}/verify`, {
      key: inbox.key,
    });
    expect(before.status).toBe(200);
    expect(await before.json()).toMatchObject({ id: inbox.id, verified: false });

    // The operator publishes the suggested record, the address in upper case and with a size.
    await service.dns.setZones([
      ...world,
      {
        origin: 'bare-fixture.org',
        records: {
          '_dmarc.bare-fixture.org': {
            TXT: [`v=DMARC1; p=none; rua=mailto:${inbox.address!.toUpperCase()}!10m`],
          },
        },
      },
    ]);
    const after = await send(service, 'POST', `/reports/v1/${inbox.id}/verify`, {
      key: inbox.key,
    });
    expect(await after.json()).toMatchObject({
      verified: true,
      suggested: { dmarc: { change: 'none' } },
    });

    // The record goes away again: verification is not taken back.
    await service.dns.setZones(world);
    const later = await send(service, 'POST', `/reports/v1/${inbox.id}/verify`, {
      key: inbox.key,
    });
    expect(await later.json()).toMatchObject({ verified: true });
  });

  it('verifies by the TLS-RPT record too', async () => {
    const inbox = await createInbox(service, { domain: 'bare-fixture.org' });
    await service.dns.setZones([
      ...world,
      {
        origin: 'bare-fixture.org',
        records: {
          '_smtp._tls.bare-fixture.org': { TXT: [`v=TLSRPTv1; rua=mailto:${inbox.address}`] },
        },
      },
    ]);
    const response = await send(service, 'POST', `/reports/v1/${inbox.id}/verify`, {
      key: inbox.key,
    });
    expect(await response.json()).toMatchObject({ verified: true });
    await service.dns.setZones(world);
  });

  it('verifies only the inbox whose address the record names', async () => {
    const first = await createInbox(service, { domain: 'bare-fixture.org' });
    const record = `v=DMARC1; p=none; rua=mailto:${first.address}`;
    await service.dns.setZones([
      ...world,
      { origin: 'bare-fixture.org', records: { '_dmarc.bare-fixture.org': { TXT: [record] } } },
    ]);
    const verified = await send(service, 'POST', `/reports/v1/${first.id}/verify`, {
      key: first.key,
    });
    expect(await verified.json()).toMatchObject({ verified: true });
    // Another inbox of the same domain, created now, is not named by that record.
    const second = await createInbox(service, { domain: 'bare-fixture.org' });
    expect(second.verified).toBe(false);
    expect(second.suggested?.dmarc).toMatchObject({
      current: record,
      value: `${record},mailto:${second.address}`,
      change: 'update',
    });
    await service.dns.setZones(world);
  });
});

describe('an inbox’s key', () => {
  it.each([
    ['GET', ''],
    ['GET', '/received'],
    ['GET', '/sources.csv'],
    ['POST', '/verify'],
    ['POST', '/upload'],
    ['DELETE', ''],
  ] as const)(
    'guards %s /{id}%s: 401 without, 403 with another, 404 for an unknown id',
    async (method, suffix) => {
      const inbox = await createInbox(service, { domain: 'bare-fixture.org' });
      const other = await createInbox(service, { domain: 'bare-fixture.org' });
      const path = `/reports/v1/${inbox.id}${suffix}`;
      const without = await send(service, method, path);
      await expectError(without, 401, {
        status: 'error',
        code: 'inbox_key_required',
        error: expect.any(String),
      });
      expect(without.headers.get('www-authenticate')).toMatch(/^Bearer/);
      await expectError(await send(service, method, path, { key: other.key }), 403, {
        status: 'error',
        code: 'inbox_key_wrong',
        error: expect.any(String),
      });
      await expectError(
        await send(service, method, `/reports/v1/AAAAAAAAAAAAAAAAAAAAAA${suffix}`, {
          key: inbox.key,
        }),
        404,
        { status: 'error', code: 'not_found', error: expect.any(String) },
      );
    },
  );

  it('guards PATCH as well, before reading its body', async () => {
    const inbox = await createInbox(service, { domain: 'bare-fixture.org' });
    const response = await send(service, 'PATCH', `/reports/v1/${inbox.id}`, {
      raw: { bytes: 'not json', type: 'text/plain' },
    });
    expect(response.status).toBe(401);
  });
});

describe('without REPORTS_ADDRESS', () => {
  it('makes inboxes without an address, records or authorization: they take uploads only', async () => {
    const bare = await startTestService({ world });
    try {
      const inbox = await createInbox(bare, { domain: 'reports-fixture.net' });
      expect(inbox).toMatchObject({
        address: null,
        suggested: null,
        authorization: null,
        verified: false,
      });
    } finally {
      await bare.close();
    }
  });
});
