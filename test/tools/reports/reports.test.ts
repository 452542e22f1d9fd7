import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { receivedSchema, Summary } from '../../../src/tools/reports/schemas.js';
import { parseCsv } from '../../support/csv.js';
import { expectError, startTestService, type TestService } from '../../support/service.js';
import {
  aggregateXml,
  type CreatedInbox,
  createInbox,
  gzipped,
  reportMessage,
  send,
  tlsJson,
  upload,
} from './support.js';

/**
 * Reports in and numbers out over real HTTP against the real app with the memory report store
 * (docs/reports.md, "API" and "The summary"): uploads of every kind, duplicates, every refusal
 * with nothing kept, the summary's sums against a hand count, the received list, sources.csv,
 * the sources' reputation from the IP check, auto_watch, and an inbox erased.
 */

type Received = z.infer<typeof receivedSchema>;

const domain = 'reports-fixture.net';
const legit = '8.8.100.20';
const partial = '8.8.100.21';
const listed = '8.8.100.66';
const v6 = '2a00:1450:4000::25';
const now = new Date('2025-06-30T12:00:00Z');

const google = aggregateXml({
  org: 'google.com',
  reportId: 'g-0610',
  domain,
  date: '2025-06-10',
  rows: [
    { ip: legit, count: 900, dkim: true, spf: true },
    { ip: partial, count: 50, dkim: true },
    { ip: listed, count: 40, disposition: 'quarantine' },
  ],
});
const outlook = aggregateXml({
  org: 'Outlook.com',
  reportId: 'o-0611',
  domain,
  date: '2025-06-11',
  rows: [
    { ip: legit, count: 100, dkim: true, spf: true },
    { ip: listed, count: 10, disposition: 'reject' },
    { ip: v6, count: 5, spf: true, headerFrom: `news.${domain}` },
  ],
});
/** A month before the default window. */
const older = aggregateXml({
  org: 'google.com',
  reportId: 'g-0501',
  domain,
  date: '2025-05-01',
  rows: [{ ip: legit, count: 1000, dkim: true, spf: true }],
});
const tls = tlsJson({
  org: 'google.com',
  reportId: 't-0612',
  domain,
  date: '2025-06-12',
  success: 1000,
  failure: 7,
  failures: [{ resultType: 'starttls-not-supported', mx: `mx.${domain}`, mta: legit, count: 7 }],
});

let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    now,
    listings: { [listed]: { 'zen.spamhaus.org': ['127.0.0.2'] } },
    env: { REPORTS_ADDRESS: 'dmarc@reports.example.org', REPORTS_MAX_BYTES: String(64 * 1024) },
  });
});
afterAll(() => service.close());

async function filled(): Promise<CreatedInbox> {
  const inbox = await createInbox(service, { domain });
  for (const [body, type] of [
    [google, 'application/xml'],
    [gzipped(outlook), 'application/gzip'],
    [older, 'text/xml'],
    [tls, 'application/tlsrpt+json'],
  ] as const) {
    const response = await upload(service, inbox, body, type);
    expect(response.status, await response.clone().text()).toBe(201);
  }
  return inbox;
}

async function summaryOf(inbox: CreatedInbox, query = ''): Promise<Summary> {
  const response = await send(service, 'GET', `/reports/v1/${inbox.id}${query}`, {
    key: inbox.key,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Summary;
}

async function receivedOf(inbox: CreatedInbox, query = ''): Promise<Received> {
  const response = await send(service, 'GET', `/reports/v1/${inbox.id}/received${query}`, {
    key: inbox.key,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Received;
}

describe('POST /reports/v1/{id}/upload', () => {
  it('takes an XML, gzip, zip or TLS report and answers what it took', async () => {
    const inbox = await createInbox(service, { domain });
    const response = await upload(service, inbox, gzipped(google), 'application/gzip');
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      received: [
        {
          kind: 'dmarc',
          org: 'google.com',
          report_id: 'g-0610',
          begin: '2025-06-10T00:00:00.000Z',
          end: '2025-06-10T23:59:59.000Z',
          records: 3,
          messages: 990,
          duplicate: false,
        },
      ],
    });
    const zip = zipSync({ 'outlook.xml': new TextEncoder().encode(outlook) });
    const zipped = await upload(service, inbox, zip, 'application/zip');
    expect(await zipped.json()).toMatchObject({
      received: [{ org: 'Outlook.com', messages: 115 }],
    });
    const tlsAnswer = await upload(service, inbox, tls, 'application/tlsrpt+json');
    expect(await tlsAnswer.json()).toMatchObject({
      received: [{ kind: 'tls', org: 'google.com', records: 1, messages: 1007 }],
    });
  });

  it('takes a whole message and the reports attached to it', async () => {
    const inbox = await createInbox(service, { domain });
    const message = reportMessage(inbox.address!, gzipped(google), 'google-report');
    const response = await upload(service, inbox, message, 'message/rfc822');
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      received: [{ org: 'google.com', report_id: 'g-0610', messages: 990 }],
    });
  });

  it('keeps a report once: the second copy answers duplicate: true and changes no sum', async () => {
    const inbox = await createInbox(service, { domain });
    await upload(service, inbox, google, 'application/xml');
    const again = await upload(service, inbox, gzipped(google), 'application/gzip');
    expect(again.status).toBe(201);
    expect(await again.json()).toMatchObject({ received: [{ duplicate: true }] });
    expect((await summaryOf(inbox)).dmarc.messages).toBe(990);
    expect((await receivedOf(inbox)).reports).toHaveLength(1);
  });

  it('keeps each inbox’s reports apart, though both name the same domain', async () => {
    const first = await createInbox(service, { domain });
    const second = await createInbox(service, { domain });
    await upload(service, first, google, 'application/xml');
    expect((await summaryOf(second)).dmarc.messages).toBe(0);
    const response = await upload(service, second, google, 'application/xml');
    expect(await response.json()).toMatchObject({ received: [{ duplicate: false }] });
  });

  it('takes a report for a subdomain of the inbox’s domain', async () => {
    const inbox = await createInbox(service, { domain });
    const sub = aggregateXml({
      org: 'yahoo.com',
      reportId: 'y-1',
      domain: `news.${domain}`,
      date: '2025-06-15',
      rows: [{ ip: legit, count: 3, dkim: true }],
    });
    expect((await upload(service, inbox, sub, 'application/xml')).status).toBe(201);
  });

  const foreign = aggregateXml({
    org: 'yahoo.com',
    reportId: 'y-2',
    domain: 'other-fixture.net',
    date: '2025-06-15',
    rows: [{ ip: legit, count: 3 }],
  });
  const bigXml = aggregateXml({
    org: 'google.com',
    reportId: 'big',
    domain,
    date: '2025-06-15',
    rows: Array.from({ length: 400 }, (_, index) => ({
      ip: `8.8.${100 + (index >> 8)}.${index & 255}`,
      count: 1,
    })),
  });

  const refusals: [string, () => Uint8Array | string, string, number, string][] = [
    [
      'a report for another domain (422 report_domain_mismatch), its good companion not kept',
      () =>
        zipSync({
          'a.xml': new TextEncoder().encode(google),
          'b.xml': new TextEncoder().encode(foreign),
        }),
      'application/zip',
      422,
      'report_domain_mismatch',
    ],
    [
      'a body that is not XML (400 invalid_report)',
      () => 'hello, world',
      'application/xml',
      400,
      'invalid_report',
    ],
    [
      'XML with a DOCTYPE (400 invalid_report), never expanded',
      () =>
        `<?xml version="1.0"?><!DOCTYPE feedback [<!ENTITY a "aaaaaaaaaa">]>${google.replace(/^<\?xml[^>]*>/, '')}`,
      'application/xml',
      400,
      'invalid_report',
    ],
    [
      'XML that is no report (400 invalid_report)',
      () => '<a><b/></a>',
      'application/xml',
      400,
      'invalid_report',
    ],
    [
      'a type that is no report’s (415 unsupported_media_type)',
      () => google,
      'text/plain',
      415,
      'unsupported_media_type',
    ],
    [
      'a body past REPORTS_MAX_BYTES (413 report_too_large)',
      () => bigXml,
      'application/xml',
      413,
      'report_too_large',
    ],
    [
      'a gzip that expands past REPORTS_MAX_BYTES (413 report_too_large)',
      () => gzipped(' '.repeat(10 * 1024 * 1024)),
      'application/gzip',
      413,
      'report_too_large',
    ],
  ];

  it.each(refusals)('refuses %s and keeps nothing', async (_what, body, type, status, code) => {
    const inbox = await createInbox(service, { domain });
    await expectError(await upload(service, inbox, body(), type), status, {
      status: 'error',
      code,
      error: expect.any(String),
    });
    expect((await receivedOf(inbox)).reports).toEqual([]);
    expect((await summaryOf(inbox)).dmarc).toMatchObject({ reports: 0, messages: 0 });
  });

  it('refuses a body past the bound that declares no length, as it streams in', async () => {
    const inbox = await createInbox(service, { domain });
    const chunk = new Uint8Array(16 * 1024).fill(32);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Far more than the bound: the service stops reading long before the end.
        if (sent++ < 1000) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await service.fetch(service.url(`/reports/v1/${inbox.id}/upload`), {
      method: 'POST',
      headers: { authorization: `Bearer ${inbox.key}`, 'content-type': 'application/xml' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await expectError(response, 413, {
      status: 'error',
      code: 'report_too_large',
      error: expect.any(String),
    });
    expect(sent).toBeLessThan(1000);
    expect((await receivedOf(inbox)).reports).toEqual([]);
  });
});

describe('GET /reports/v1/{id}', () => {
  it('sums the last 30 days exactly as a hand count does, in messages', async () => {
    const inbox = await filled();
    const summary = await summaryOf(inbox);
    expect(summary).toMatchObject({
      id: inbox.id,
      domain,
      verified: false,
      period: { from: '2025-06-01', to: '2025-06-30' },
      retention_days: 365,
      more_sources: false,
    });
    // google.com 990 (950 pass) and Outlook.com 115 (105 pass); May's report is outside.
    expect(summary.dmarc).toEqual({
      reports: 2,
      messages: 1105,
      pass: 1055,
      fail: 50,
      pass_rate: 0.9548,
      spf_aligned: 1005,
      dkim_aligned: 1050,
      dispositions: { none: 1055, quarantine: 40, reject: 10 },
      reporters: [
        { org: 'google.com', reports: 1, messages: 990, pass: 950 },
        { org: 'Outlook.com', reports: 1, messages: 115, pass: 105 },
      ],
      daily: [
        { date: '2025-06-10', pass: 950, fail: 40 },
        { date: '2025-06-11', pass: 105, fail: 10 },
      ],
    });
    expect(
      summary.sources.map((source: Record<string, unknown>) => ({
        ip: source.ip,
        messages: source.messages,
        pass: source.pass,
        fail: source.fail,
        spf: source.spf_aligned,
        dkim: source.dkim_aligned,
        from: source.header_from,
        reporters: source.reporters,
      })),
    ).toEqual([
      {
        ip: legit,
        messages: 1000,
        pass: 1000,
        fail: 0,
        spf: 1000,
        dkim: 1000,
        from: [domain],
        reporters: ['google.com', 'Outlook.com'],
      },
      {
        ip: partial,
        messages: 50,
        pass: 50,
        fail: 0,
        spf: 0,
        dkim: 50,
        from: [domain],
        reporters: ['google.com'],
      },
      {
        ip: listed,
        messages: 50,
        pass: 0,
        fail: 50,
        spf: 0,
        dkim: 0,
        from: [domain],
        reporters: ['google.com', 'Outlook.com'],
      },
      {
        ip: v6,
        messages: 5,
        pass: 5,
        fail: 0,
        spf: 5,
        dkim: 0,
        from: [`news.${domain}`],
        reporters: ['Outlook.com'],
      },
    ]);
    expect(summary.tls).toEqual({
      reports: 1,
      sessions: { success: 1000, failure: 7 },
      policies: [{ type: 'sts', domain, success: 1000, failure: 7 }],
      failures: [
        {
          result_type: 'starttls-not-supported',
          receiving_mx_hostname: `mx.${domain}`,
          sending_mta_ip: legit,
          count: 7,
        },
      ],
    });
  });

  it('sums the period asked for: May’s report with from=2025-05-01', async () => {
    const inbox = await filled();
    const may = await summaryOf(inbox, '?from=2025-05-01&to=2025-05-31');
    expect(may.period).toEqual({ from: '2025-05-01', to: '2025-05-31' });
    expect(may.dmarc).toMatchObject({ reports: 1, messages: 1000, pass: 1000, pass_rate: 1 });
    expect(may.tls.reports).toBe(0);
    const both = await summaryOf(inbox, '?from=2025-05-01');
    expect(both.dmarc.messages).toBe(2105);
  });

  it('says null for a pass rate without messages, never a guess', async () => {
    const inbox = await createInbox(service, { domain });
    const summary = await summaryOf(inbox);
    expect(summary.dmarc).toMatchObject({ messages: 0, pass_rate: null, daily: [] });
    expect(summary.sources).toEqual([]);
  });

  it.each([
    ['?from=2025-6-1', 'from'],
    ['?to=yesterday', 'to'],
    ['?from=2025-02-30', 'from'],
    ['?from=2025-06-20&to=2025-06-10', 'from'],
  ])('refuses %s with 400 invalid_request naming %s', async (query, name) => {
    const inbox = await createInbox(service, { domain });
    const response = await send(service, 'GET', `/reports/v1/${inbox.id}${query}`, {
      key: inbox.key,
    });
    await expectError(response, 400, {
      status: 'error',
      code: 'invalid_request',
      error: expect.stringMatching(new RegExp(`^${name}:`)),
    });
  });
});

describe('the sources’ reputation', () => {
  // A service of its own: no source of these tests has been checked by it yet.
  let fresh: TestService;
  let main: TestService;
  beforeAll(async () => {
    main = service;
    fresh = await startTestService({
      now,
      listings: { [listed]: { 'zen.spamhaus.org': ['127.0.0.2'] } },
      env: { REPORTS_ADDRESS: 'dmarc@reports.example.org' },
    });
    service = fresh;
  });
  afterAll(async () => {
    service = main;
    await fresh.close();
  });

  it('is null until checked, then the IP check’s, started in the background at nobody’s cost', async () => {
    const inbox = await filled();
    const quota = async () =>
      ((await (await service.get('/ip/v1/status')).json()) as { dailyRemaining: number })
        .dailyRemaining;
    const before = await quota();
    const first = await summaryOf(inbox);
    // Nothing was checked before: every source says null, none a guess.
    for (const source of first.sources)
      expect(source).toMatchObject({ ptr: null, reputation: null });
    let summary = first;
    for (let attempt = 0; attempt < 100; attempt++) {
      if (summary.sources.every((source) => source.reputation !== null)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
      summary = await summaryOf(inbox);
    }
    const byIp = Object.fromEntries(summary.sources.map((source) => [source.ip, source]));
    expect(byIp[listed]?.reputation).toMatchObject({
      verdict: expect.any(String),
      listed_on: [{ zone: 'zen.spamhaus.org', name: expect.any(String) }],
      token: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    });
    expect(byIp[legit]?.reputation).toMatchObject({ listed_on: [] });
    expect(typeof byIp[legit]?.ptr).toBe('string');
    // The checks are the IP tool's: its stored result, under the token the summary gives.
    const stored = await service.get(`/ip/v1/${byIp[listed]?.reputation?.token}`);
    expect(stored.status).toBe(200);
    expect(await stored.json()).toMatchObject({ ip: listed });
    expect(await quota()).toBe(before);
  });

  it('comes from the IP tool’s result cache at once for an address checked there', async () => {
    const checked = await service.post('/ip/v1', { target: partial });
    const { token } = (await checked.json()) as { token: string };
    const inbox = await createInbox(service, { domain });
    await upload(service, inbox, google, 'application/xml');
    const summary = await summaryOf(inbox);
    const source = summary.sources.find((each) => each.ip === partial);
    expect(source?.reputation).toMatchObject({ token, listed_on: [] });
  });
});

function withoutReputation(summary: Summary) {
  return {
    ...summary,
    sources: summary.sources.map(({ ptr: _ptr, reputation: _reputation, ...rest }) => rest),
  };
}

describe('a trailing slash', () => {
  it('is answered as the route itself on the routes behind a key', async () => {
    const inbox = await filled();
    for (const path of ['', '/received', '/sources.csv']) {
      const plain = await send(service, 'GET', `/reports/v1/${inbox.id}${path}`, {
        key: inbox.key,
      });
      const slashed = await send(service, 'GET', `/reports/v1/${inbox.id}${path}/`, {
        key: inbox.key,
      });
      expect(slashed.status, path).toBe(200);
      expect(slashed.headers.get('content-type')).toBe(plain.headers.get('content-type'));
      // The sources' reputation may arrive between the two: the rest is the same.
      const [before, after] = [await plain.text(), await slashed.text()].map((text) =>
        path === '' ? withoutReputation(JSON.parse(text) as Summary) : text,
      );
      expect(after, path).toEqual(before);
    }
  });
});

describe('GET /reports/v1/{id}/received', () => {
  it('lists the reports of the period, newest first, with how they came', async () => {
    const inbox = await filled();
    const received = await receivedOf(inbox);
    expect(received.period).toEqual({ from: '2025-06-01', to: '2025-06-30' });
    expect(received.more).toBe(false);
    expect(
      received.reports.map((report: { kind: string; org: string; report_id: string }) => [
        report.kind,
        report.org,
        report.report_id,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['dmarc', 'google.com', 'g-0610'],
        ['dmarc', 'Outlook.com', 'o-0611'],
        ['tls', 'google.com', 't-0612'],
      ]),
    );
    expect(received.reports).toHaveLength(3);
    expect(received.reports[0]).toEqual({
      kind: expect.any(String),
      org: expect.any(String),
      report_id: expect.any(String),
      begin: expect.any(String),
      end: expect.any(String),
      records: expect.any(Number),
      messages: expect.any(Number),
      received_at: expect.any(String),
      via: 'upload',
    });
    const one = await receivedOf(inbox, '?limit=1');
    expect(one.reports).toHaveLength(1);
    expect(one.more).toBe(true);
  });

  it.each(['0', '1001', 'ten'])('refuses limit=%s with 400', async (limit) => {
    const inbox = await createInbox(service, { domain });
    const response = await send(service, 'GET', `/reports/v1/${inbox.id}/received?limit=${limit}`, {
      key: inbox.key,
    });
    expect(response.status).toBe(400);
  });
});

describe('GET /reports/v1/{id}/sources.csv', () => {
  it('lists every source of the period as RFC 4180 CSV with its documented columns', async () => {
    const inbox = await filled();
    const response = await send(service, 'GET', `/reports/v1/${inbox.id}/sources.csv`, {
      key: inbox.key,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(response.headers.get('content-disposition')).toContain('attachment');
    const rows = parseCsv(await response.text());
    expect(rows[0]).toEqual([
      'ip',
      'messages',
      'pass',
      'fail',
      'spf_aligned',
      'dkim_aligned',
      'header_from',
      'reporters',
      'ptr',
      'verdict',
      'score',
      'listed_on',
    ]);
    expect(rows.slice(1).map((row) => row.slice(0, 8))).toEqual([
      [legit, '1000', '1000', '0', '1000', '1000', domain, 'google.com Outlook.com'],
      [partial, '50', '50', '0', '0', '50', domain, 'google.com'],
      [listed, '50', '0', '50', '0', '0', domain, 'google.com Outlook.com'],
      [v6, '5', '5', '0', '5', '0', `news.${domain}`, 'Outlook.com'],
    ]);
    const may = await send(
      service,
      'GET',
      `/reports/v1/${inbox.id}/sources.csv?from=2025-05-01&to=2025-05-31`,
      {
        key: inbox.key,
      },
    );
    expect(
      parseCsv(await may.text())
        .slice(1)
        .map((row) => row.slice(0, 2)),
    ).toEqual([[legit, '1000']]);
  });
});

describe('PATCH /reports/v1/{id}', () => {
  it('keeps auto_watch settings judged as a watch’s, and null turns them off', async () => {
    const inbox = await createInbox(service, { domain });
    const set = await send(service, 'PATCH', `/reports/v1/${inbox.id}`, {
      key: inbox.key,
      body: { auto_watch: { webhook_url: 'https://hooks.example.com/reports', min_messages: 500 } },
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({
      id: inbox.id,
      domain,
      auto_watch: {
        webhook_url: 'https://hooks.example.com/reports',
        webhook_format: null,
        email: null,
        min_messages: 500,
      },
      // Shown once: the secret the inbox's deliveries are signed with (src/auto-watch/).
      webhook_secret: expect.stringMatching(/^whsec_/),
    });
    const off = await send(service, 'PATCH', `/reports/v1/${inbox.id}`, {
      key: inbox.key,
      body: { auto_watch: null },
    });
    expect(await off.json()).toEqual({ id: inbox.id, domain, auto_watch: null });
  });

  it.each([
    [{ webhook_url: 'http://10.0.0.1/hook' }, 400, 'invalid_webhook'],
    [{ webhook_url: 'https://hooks.example.com/x', webhook_format: 'fax' }, 400, 'invalid_webhook'],
    [{ email: 'postmaster@example.org', webhook_format: 'slack' }, 400, 'invalid_webhook'],
    [
      { webhook_url: 'https://hooks.example.com/x', email: 'a@example.org' },
      400,
      'invalid_request',
    ],
    [{}, 400, 'invalid_request'],
    [{ webhook_url: 'https://hooks.example.com/x', min_messages: 0 }, 400, 'invalid_request'],
    [{ email: 'postmaster@example.org' }, 422, 'email_unavailable'],
  ])('refuses %j with %i %s and keeps what was set', async (autoWatch, status, code) => {
    const inbox = await createInbox(service, { domain });
    const response = await send(service, 'PATCH', `/reports/v1/${inbox.id}`, {
      key: inbox.key,
      body: { auto_watch: autoWatch },
    });
    await expectError(response, status, { status: 'error', code, error: expect.any(String) });
  });
});

describe('DELETE /reports/v1/{id}', () => {
  it('erases the inbox and its reports: 204, then 404 everywhere, its view link too', async () => {
    const inbox = await filled();
    const response = await send(service, 'DELETE', `/reports/v1/${inbox.id}`, { key: inbox.key });
    expect(response.status).toBe(204);
    for (const path of ['', '/received', '/sources.csv']) {
      const gone = await send(service, 'GET', `/reports/v1/${inbox.id}${path}`, { key: inbox.key });
      expect(gone.status).toBe(404);
    }
    const view = await service.get(
      new URL(inbox.view_url).pathname.slice('/tools/ip-reputation'.length),
    );
    expect(view.status).toBe(404);
    expect(
      (await send(service, 'DELETE', `/reports/v1/${inbox.id}`, { key: inbox.key })).status,
    ).toBe(404);
  });
});
