import { zipSync } from 'fflate';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  createInboxes,
  createMemoryReportStore,
  createReportIntake,
  createReportReader,
  defaultReadLimits,
  inboxIdOf,
  type Inboxes,
  parseReportsMailbox,
  type ReportIntake,
  type ReportStore,
} from '../../src/reports/index.js';
import { webCrypto } from '../../src/platform.js';
import { memoryWorld } from '../support/memory-resolver.js';
import { aggregateXml, gzipped, reportMessage } from '../tools/reports/support.js';

/**
 * The intake every door shares (docs/reports.md, "The intake"), as the SMTP and IMAP doors and
 * Email Workers will call it: a recipient routed by its subaddress (RFC 5233), an unverified inbox
 * asked of the DNS again and refused while it stays so, a message read whole and kept all or
 * nothing. Over the memory report store, the real readers and an in-process fixture DNS world.
 */

const mailbox = parseReportsMailbox('dmarc@reports.example.org')!;
const domain = 'intake-fixture.net';
const at = new Date('2025-06-30T12:00:00Z');

const good = aggregateXml({
  org: 'google.com',
  reportId: 'g-1',
  domain,
  date: '2025-06-10',
  rows: [{ ip: '8.8.100.20', count: 12, dkim: true }],
});
const foreign = aggregateXml({
  org: 'yahoo.com',
  reportId: 'y-1',
  domain: 'elsewhere-fixture.net',
  date: '2025-06-10',
  rows: [{ ip: '8.8.100.20', count: 3 }],
});

const world = memoryWorld();
let store: ReportStore;
let inboxes: Inboxes;
let intake: ReportIntake;

beforeEach(() => {
  world.setZones([]);
  store = createMemoryReportStore();
  inboxes = createInboxes({
    store,
    resolver: world.resolver,
    ...webCrypto,
    clock: () => at,
    mailbox,
    deadlineMs: 1000,
  });
  intake = createReportIntake({
    store,
    reader: createReportReader(defaultReadLimits),
    clock: () => at,
    mailbox,
    verify: (inbox) => inboxes.verify(inbox),
  });
});

async function verifiedInbox() {
  const { inbox } = await inboxes.create({ domain, lang: 'en' });
  world.setZones([
    {
      origin: domain,
      records: {
        [`_dmarc.${domain}`]: { TXT: [`v=DMARC1; p=none; rua=mailto:${inboxes.addressOf(inbox)}`] },
      },
    },
  ]);
  return inbox;
}

const received = (id: string) =>
  store.received(id, { from: '2025-06-01', to: '2025-06-30' }, { limit: 10 });

describe('a recipient', () => {
  it('names its inbox by the subaddress: base and domain in any case, the id exactly', async () => {
    expect(inboxIdOf(mailbox, 'dmarc+AbC_d-1@reports.example.org')).toBe('AbC_d-1');
    expect(inboxIdOf(mailbox, '<DMARC+AbC_d-1@Reports.Example.ORG.>')).toBe('AbC_d-1');
    for (const other of [
      'dmarc@reports.example.org',
      'dmarc+x@reports.example.net',
      'other+x@reports.example.org',
      'dmarc+x+y@reports.example.org',
      'dmarc+@reports.example.org',
      'not an address',
    ]) {
      expect(inboxIdOf(mailbox, other), other).toBeUndefined();
    }
  });

  it('is unknown_recipient when no inbox has its address, the id compared exactly', async () => {
    const inbox = await verifiedInbox();
    expect(await intake.accepts(`dmarc+${inbox.id}@reports.example.org`)).toEqual({ ok: true });
    for (const recipient of [
      `dmarc+${inbox.id.toLowerCase() === inbox.id ? `${inbox.id}x` : inbox.id.toLowerCase()}@reports.example.org`,
      'dmarc+AAAAAAAAAAAAAAAAAAAAAA@reports.example.org',
      `postmaster@reports.example.org`,
    ]) {
      expect(await intake.accepts(recipient)).toMatchObject({
        ok: false,
        code: 'unknown_recipient',
      });
    }
  });

  it('is inbox_unverified while the domain names the inbox nowhere, and taken once it does', async () => {
    const { inbox } = await inboxes.create({ domain, lang: 'en' });
    const address = inboxes.addressOf(inbox)!;
    expect(await intake.accepts(address)).toMatchObject({ ok: false, code: 'inbox_unverified' });
    const refused = await intake.mail(
      address,
      new TextEncoder().encode(reportMessage(address, gzipped(good), 'r')),
      'smtp',
    );
    expect(refused).toMatchObject({ ok: false, code: 'inbox_unverified' });
    expect(await received(inbox.id)).toEqual([]);
    // The domain publishes the address in its TLS-RPT record: the next mail verifies the inbox.
    world.setZones([
      {
        origin: domain,
        records: { [`_smtp._tls.${domain}`]: { TXT: [`v=TLSRPTv1; rua=mailto:${address}`] } },
      },
    ]);
    expect(await intake.accepts(address)).toEqual({ ok: true });
    expect((await store.inbox(inbox.id))?.verified).toBe(true);
  });
});

describe('mail for a verified inbox', () => {
  it('keeps every report of the message, by the door it came through', async () => {
    const inbox = await verifiedInbox();
    const address = inboxes.addressOf(inbox)!;
    const message = new TextEncoder().encode(reportMessage(address, gzipped(good), 'google'));
    const outcome = await intake.mail(address, message, 'imap');
    expect(outcome).toEqual({
      ok: true,
      inboxId: inbox.id,
      received: [
        {
          kind: 'dmarc',
          org: 'google.com',
          report_id: 'g-1',
          begin: '2025-06-10T00:00:00.000Z',
          end: '2025-06-10T23:59:59.000Z',
          records: 1,
          messages: 12,
          duplicate: false,
        },
      ],
    });
    expect(await received(inbox.id)).toMatchObject([{ reportId: 'g-1', via: 'imap' }]);
    // The same report again, by another door: kept once.
    const again = await intake.upload(inbox, new TextEncoder().encode(good), 'application/xml');
    expect(again).toMatchObject({ ok: true, received: [{ duplicate: true }] });
  });

  it('keeps nothing of a message when one of its reports is for another domain', async () => {
    const inbox = await verifiedInbox();
    const address = inboxes.addressOf(inbox)!;
    const zip = zipSync({
      'good.xml': new TextEncoder().encode(good),
      'foreign.xml': new TextEncoder().encode(foreign),
    });
    const outcome = await intake.mail(
      address,
      new TextEncoder().encode(reportMessage(address, zip, 'both')),
      'smtp',
    );
    expect(outcome).toMatchObject({ ok: false, code: 'report_domain_mismatch' });
    expect(await received(inbox.id)).toEqual([]);
  });

  it('answers a message it cannot read with the reader’s refusal, keeping nothing', async () => {
    const inbox = await verifiedInbox();
    const address = inboxes.addressOf(inbox)!;
    const outcome = await intake.mail(
      address,
      new TextEncoder().encode('Subject: hello\r\n\r\nno report here\r\n'),
      'email',
    );
    expect(outcome).toMatchObject({
      ok: false,
      code: 'invalid_report',
      reason: expect.any(String),
    });
    expect(await received(inbox.id)).toEqual([]);
  });
});

describe('without REPORTS_ADDRESS', () => {
  it('routes no mail to any inbox', async () => {
    const bare = createReportIntake({
      store,
      reader: createReportReader(defaultReadLimits),
      clock: () => at,
      verify: (inbox) => inboxes.verify(inbox),
    });
    const inbox = await verifiedInbox();
    expect(await bare.accepts(`dmarc+${inbox.id}@reports.example.org`)).toMatchObject({
      ok: false,
      code: 'unknown_recipient',
    });
  });
});
