import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Inbox, ParsedReport, Period, ReportStore, Via } from '../../../src/reports/index.js';
import { aDmarcReport, addDays, anInbox, aTlsReport, dayStart } from './report-builder.js';
import { describeGeneratedMonths } from './generated-months.js';

/**
 * The ReportStore contract (src/reports/store.ts) as one suite every backend runs: the memory
 * store, SQLite, PostgreSQL (and the Durable Object's SQLite when it comes). Sums are checked
 * against hand counts of the reports added, and against a generated quarter of realistic
 * reports counted by the test itself, for periods that cut through months, so the rollups'
 * grains and their ends are checked as well as their sums.
 */

const may = (day: number) => `2024-05-${String(day).padStart(2, '0')}`;
const wholeMay: Period = { from: '2024-05-01', to: '2024-05-31' };
const receivedAt = Date.parse('2024-06-01T08:00:00Z');
const upload = { via: 'upload' as Via, receivedAt };

export function describeReportStoreContract(name: string, open: () => Promise<ReportStore>): void {
  describe(`the ${name} report store`, () => {
    let store: ReportStore;
    let inbox: Inbox;
    beforeEach(async () => {
      store = await open();
      inbox = anInbox();
      await store.createInbox(inbox);
    });
    afterEach(() => store.close());

    const add = (report: ParsedReport, meta: Partial<typeof upload> = {}, into = inbox.id) =>
      store.addReport(into, report, { ...upload, ...meta });

    describe('inboxes', () => {
      it('keeps an inbox as given, found by its id and by its view token', async () => {
        const watching = anInbox({ lang: 'ru', verified: true, autoWatch: { min_messages: 5 } });
        await store.createInbox(watching);
        expect(await store.inbox(watching.id)).toEqual(watching);
        expect(await store.inboxByViewToken(watching.viewToken)).toEqual(watching);
        expect(await store.inbox(inbox.id)).toEqual(inbox);
      });

      it('answers undefined for an id or a view token it does not hold', async () => {
        expect(await store.inbox('no-such-inbox')).toBeUndefined();
        expect(await store.inboxByViewToken('no-such-token')).toBeUndefined();
        expect(await store.inboxByViewToken(inbox.id)).toBeUndefined();
      });

      it('refuses a second inbox under an id already taken, keeping the first', async () => {
        await expect(store.createInbox({ ...inbox, domain: 'other.example' })).rejects.toThrow();
        expect(await store.inbox(inbox.id)).toEqual(inbox);
      });

      it('changes verified and auto_watch, each leaving what the change does not name', async () => {
        const settings = { webhook_url: 'https://hooks.example.net/a', min_messages: 100 };
        expect(await store.updateInbox(inbox.id, { verified: true })).toEqual({
          ...inbox,
          verified: true,
        });
        expect(await store.updateInbox(inbox.id, { autoWatch: settings })).toEqual({
          ...inbox,
          verified: true,
          autoWatch: settings,
        });
        expect(await store.updateInbox(inbox.id, { autoWatch: null })).toEqual({
          ...inbox,
          verified: true,
          autoWatch: null,
        });
        expect(await store.inbox(inbox.id)).toEqual({ ...inbox, verified: true });
      });

      it('answers undefined when asked to change an inbox it does not hold', async () => {
        expect(await store.updateInbox('no-such-inbox', { verified: true })).toBeUndefined();
        expect(await store.inbox('no-such-inbox')).toBeUndefined();
      });

      it('lists the inboxes with auto_watch set, oldest first', async () => {
        const later = anInbox({
          createdAt: inbox.createdAt + 2000,
          autoWatch: { email: 'a@x.example' },
        });
        const earlier = anInbox({ createdAt: inbox.createdAt + 1000 });
        await store.createInbox(later);
        await store.createInbox(earlier);
        await store.createInbox(anInbox({ autoWatch: null }));
        expect(await store.autoWatchInboxes()).toEqual([later]);
        await store.updateInbox(earlier.id, { autoWatch: { min_messages: 1 } });
        expect((await store.autoWatchInboxes()).map((each) => each.id)).toEqual([
          earlier.id,
          later.id,
        ]);
        await store.updateInbox(later.id, { autoWatch: null });
        expect((await store.autoWatchInboxes()).map((each) => each.id)).toEqual([earlier.id]);
      });

      it('erases an inbox with every report in it, and says whether it held one', async () => {
        const other = anInbox();
        await store.createInbox(other);
        const report = aDmarcReport({
          org: 'google.com',
          reportId: 'g-1',
          date: may(3),
          rows: [{ ip: '192.0.2.1', messages: 4, dkim: true }],
        });
        const tls = aTlsReport({
          org: 'google.com',
          reportId: 't-1',
          date: may(3),
          policies: [{ success: 10, failures: [{ resultType: 'certificate-expired', count: 2 }] }],
        });
        for (const into of [inbox.id, other.id]) {
          await add(report, {}, into);
          await add(tls, {}, into);
        }
        expect(await store.deleteInbox(inbox.id)).toBe(true);
        expect(await store.deleteInbox(inbox.id)).toBe(false);
        expect(await store.inbox(inbox.id)).toBeUndefined();
        expect(await store.inboxByViewToken(inbox.viewToken)).toBeUndefined();
        expect(await store.received(inbox.id, wholeMay, { limit: 10 })).toEqual([]);
        expect((await store.dmarcTotals(inbox.id, wholeMay)).messages).toBe(0);
        expect(await store.sources(inbox.id, wholeMay)).toEqual([]);
        expect((await store.tlsTotals(inbox.id, wholeMay)).reports).toBe(0);
        // The other inbox keeps its copy; an inbox made again under the id starts empty.
        expect((await store.dmarcTotals(other.id, wholeMay)).messages).toBe(4);
        expect((await store.tlsTotals(other.id, wholeMay)).sessions).toEqual({
          success: 10,
          failure: 2,
        });
        await store.createInbox(inbox);
        expect(await store.sources(inbox.id, wholeMay)).toEqual([]);
        expect(await add(report)).toEqual({ duplicate: false });
        expect((await store.dmarcTotals(inbox.id, wholeMay)).messages).toBe(4);
      });
    });

    describe('reports', () => {
      const google = aDmarcReport({
        org: 'google.com',
        reportId: '1234567890',
        date: may(2),
        rows: [
          { ip: '192.0.2.10', messages: 30, dkim: true, spf: true },
          { ip: '192.0.2.11', messages: 5, spf: true, disposition: 'none' },
          { ip: '198.51.100.7', messages: 2, disposition: 'reject' },
        ],
      });

      it('keeps a report once per inbox: a second copy answers duplicate and counts nothing twice', async () => {
        expect(await add(google)).toEqual({ duplicate: false });
        expect(await add(google, { via: 'smtp', receivedAt: receivedAt + 60_000 })).toEqual({
          duplicate: true,
        });
        const totals = await store.dmarcTotals(inbox.id, wholeMay);
        expect([totals.reports, totals.messages]).toEqual([1, 37]);
        expect((await store.sources(inbox.id, wholeMay))[0]).toMatchObject({
          ip: '192.0.2.10',
          messages: 30,
        });
        const received = await store.received(inbox.id, wholeMay, { limit: 10 });
        expect(received).toHaveLength(1);
        expect(received[0]).toMatchObject({ via: 'upload', receivedAt });
      });

      it('tells reports apart by kind, reporting org and report id', async () => {
        const again = (org: string, reportId: string) => ({ ...google, org, reportId });
        expect(await add(google)).toEqual({ duplicate: false });
        expect(await add(again('yahoo.com', google.reportId))).toEqual({ duplicate: false });
        expect(await add(again(google.org, `${google.reportId}-2`))).toEqual({ duplicate: false });
        const tls = aTlsReport({
          org: google.org,
          reportId: google.reportId,
          date: may(2),
          policies: [{ success: 3 }],
        });
        expect(await add(tls)).toEqual({ duplicate: false });
        expect((await store.dmarcTotals(inbox.id, wholeMay)).reports).toBe(3);
        expect((await store.tlsTotals(inbox.id, wholeMay)).reports).toBe(1);
      });

      it('counts the same report in each inbox it was sent to', async () => {
        const other = anInbox();
        await store.createInbox(other);
        expect(await add(google)).toEqual({ duplicate: false });
        expect(await add(google, {}, other.id)).toEqual({ duplicate: false });
        expect(await add(google, {}, other.id)).toEqual({ duplicate: true });
        for (const id of [inbox.id, other.id]) {
          expect((await store.dmarcTotals(id, wholeMay)).messages).toBe(37);
          expect(await store.received(id, wholeMay, { limit: 10 })).toHaveLength(1);
        }
      });

      it('refuses a report for an inbox it does not hold, keeping nothing', async () => {
        await expect(store.addReport('no-such-inbox', google, upload)).rejects.toThrow();
        expect(await store.received('no-such-inbox', wholeMay, { limit: 10 })).toEqual([]);
        await store.createInbox({ ...anInbox(), id: 'no-such-inbox' });
        expect(await store.addReport('no-such-inbox', google, upload)).toEqual({
          duplicate: false,
        });
      });

      it('keeps several reports in one call as it would one by one, answering for each in order', async () => {
        const yahoo = aDmarcReport({
          org: 'yahoo.com',
          reportId: 'y-9',
          date: may(2),
          rows: [{ ip: '192.0.2.10', messages: 8, dkim: true }],
        });
        const tls = aTlsReport({
          org: 'google.com',
          reportId: 't-9',
          date: may(3),
          policies: [{ success: 5 }],
        });
        expect(await add(google)).toEqual({ duplicate: false });
        const answers = await store.addReports(inbox.id, [
          { report: yahoo, ...upload },
          { report: google, ...upload },
          { report: tls, via: 'email', receivedAt: receivedAt + 1 },
          { report: yahoo, via: 'smtp', receivedAt: receivedAt + 2 },
        ]);
        expect(answers).toEqual([
          { duplicate: false },
          { duplicate: true },
          { duplicate: false },
          { duplicate: true },
        ]);
        const totals = await store.dmarcTotals(inbox.id, wholeMay);
        expect([totals.reports, totals.messages]).toEqual([2, 45]);
        expect((await store.sources(inbox.id, wholeMay))[0]).toMatchObject({
          ip: '192.0.2.10',
          messages: 38,
          reporters: ['google.com', 'yahoo.com'],
        });
        expect(
          (await store.received(inbox.id, wholeMay, { limit: 10 })).map((r) => [r.reportId, r.via]),
        ).toEqual([
          ['t-9', 'email'],
          ['1234567890', 'upload'],
          ['y-9', 'upload'],
        ]);
        expect(await store.addReports(inbox.id, [])).toEqual([]);
      });

      it('keeps none of a batch for an inbox it does not hold', async () => {
        await expect(
          store.addReports('no-such-inbox', [{ report: google, ...upload }]),
        ).rejects.toThrow();
        await store.createInbox({ ...anInbox(), id: 'no-such-inbox' });
        expect(await store.received('no-such-inbox', wholeMay, { limit: 10 })).toEqual([]);
      });

      it('lists the reports of the period received last first, with records, messages and how each came, up to the limit', async () => {
        const tls = aTlsReport({
          org: 'microsoft.com',
          reportId: 'ms-tls-1',
          date: may(3),
          policies: [
            { success: 900, failures: [{ resultType: 'starttls-not-supported', count: 12 }] },
            { type: 'no-policy-found', success: 40 },
          ],
        });
        const yahoo = aDmarcReport({
          org: 'yahoo.com',
          reportId: 'y-1',
          date: may(4),
          rows: [{ ip: '192.0.2.10', messages: 9, dkim: true }],
        });
        await add(google, { via: 'imap', receivedAt: receivedAt - 3000 });
        await add(tls, { via: 'smtp', receivedAt: receivedAt - 1000 });
        await add(yahoo, { via: 'email', receivedAt: receivedAt - 2000 });
        expect(await store.received(inbox.id, wholeMay, { limit: 10 })).toEqual([
          {
            kind: 'tls',
            org: 'microsoft.com',
            reportId: 'ms-tls-1',
            begin: dayStart(may(3)),
            end: dayStart(may(3)) + 86_399,
            records: 2,
            messages: 952,
            receivedAt: receivedAt - 1000,
            via: 'smtp',
          },
          {
            kind: 'dmarc',
            org: 'yahoo.com',
            reportId: 'y-1',
            begin: dayStart(may(4)),
            end: dayStart(may(4)) + 86_399,
            records: 1,
            messages: 9,
            receivedAt: receivedAt - 2000,
            via: 'email',
          },
          {
            kind: 'dmarc',
            org: 'google.com',
            reportId: '1234567890',
            begin: dayStart(may(2)),
            end: dayStart(may(2)) + 86_399,
            records: 3,
            messages: 37,
            receivedAt: receivedAt - 3000,
            via: 'imap',
          },
        ]);
        expect(
          (await store.received(inbox.id, wholeMay, { limit: 2 })).map((r) => r.reportId),
        ).toEqual(['ms-tls-1', 'y-1']);
        expect(
          await store.received(inbox.id, { from: may(4), to: may(4) }, { limit: 10 }),
        ).toMatchObject([{ reportId: 'y-1' }]);
        expect(await store.received(inbox.id, wholeMay, { limit: 0 })).toEqual([]);
      });

      it('lists reports received at one moment by the end of their period, the later first', async () => {
        await add(aDmarcReport({ org: 'a.example', reportId: 'early', date: may(5), rows: [] }));
        await add(aDmarcReport({ org: 'a.example', reportId: 'late', date: may(6), rows: [] }));
        expect(
          (await store.received(inbox.id, wholeMay, { limit: 10 })).map((r) => r.reportId),
        ).toEqual(['late', 'early']);
      });
    });

    describe('DMARC totals', () => {
      it('sums messages, not records: passes where DKIM or SPF aligned, alignments, dispositions, reporters and days', async () => {
        await add(
          aDmarcReport({
            org: 'google.com',
            reportId: 'g-2',
            date: may(2),
            rows: [
              { ip: '192.0.2.10', messages: 100, dkim: true, spf: true },
              { ip: '192.0.2.10', messages: 20, dkim: true, spf: false },
              { ip: '192.0.2.11', messages: 7, dkim: false, spf: true },
              { ip: '198.51.100.7', messages: 3, disposition: 'quarantine' },
            ],
          }),
        );
        await add(
          aDmarcReport({
            org: 'Outlook.com',
            reportId: 'o-2',
            date: may(2),
            rows: [
              { ip: '192.0.2.10', messages: 50, dkim: true, spf: true },
              { ip: '198.51.100.7', messages: 4, disposition: 'reject' },
            ],
          }),
        );
        await add(
          aDmarcReport({
            org: 'google.com',
            reportId: 'g-3',
            date: may(3),
            rows: [{ ip: '192.0.2.10', messages: 80, dkim: true }],
          }),
        );
        await add(aDmarcReport({ org: 'empty.example', reportId: 'e-1', date: may(4), rows: [] }));
        // TLS reports count in no DMARC sum.
        await add(
          aTlsReport({
            org: 'google.com',
            reportId: 't-9',
            date: may(2),
            policies: [{ success: 500 }],
          }),
        );
        expect(await store.dmarcTotals(inbox.id, wholeMay)).toEqual({
          reports: 4,
          messages: 264,
          pass: 257,
          fail: 7,
          spfAligned: 157,
          dkimAligned: 250,
          dispositions: { none: 257, quarantine: 3, reject: 4 },
          reporters: [
            { org: 'google.com', reports: 2, messages: 210, pass: 207 },
            { org: 'Outlook.com', reports: 1, messages: 54, pass: 50 },
            { org: 'empty.example', reports: 1, messages: 0, pass: 0 },
          ],
          daily: [
            { date: may(2), pass: 177, fail: 7 },
            { date: may(3), pass: 80, fail: 0 },
            { date: may(4), pass: 0, fail: 0 },
          ],
        });
      });

      it('answers zeros and empty lists for a period without reports', async () => {
        await add(
          aDmarcReport({
            org: 'google.com',
            reportId: 'g-4',
            date: may(2),
            rows: [{ ip: '192.0.2.10', messages: 1 }],
          }),
        );
        expect(await store.dmarcTotals(inbox.id, { from: '2024-06-01', to: '2024-06-30' })).toEqual(
          {
            reports: 0,
            messages: 0,
            pass: 0,
            fail: 0,
            spfAligned: 0,
            dkimAligned: 0,
            dispositions: { none: 0, quarantine: 0, reject: 0 },
            reporters: [],
            daily: [],
          },
        );
        expect(await store.sources(inbox.id, { from: '2024-06-01', to: '2024-06-30' })).toEqual([]);
      });
    });

    describe('sources', () => {
      beforeEach(async () => {
        await add(
          aDmarcReport({
            org: 'google.com',
            reportId: 's-1',
            date: may(10),
            rows: [
              { ip: '192.0.2.20', messages: 40, dkim: true, spf: true, headerFrom: 'example.com' },
              { ip: '192.0.2.20', messages: 60, dkim: true, headerFrom: 'news.example.com' },
              { ip: '203.0.113.5', messages: 50, spf: true },
              { ip: '2001:db8::25', messages: 50, headerFrom: null },
              { ip: '198.51.100.9', messages: 3, disposition: 'reject' },
            ],
          }),
        );
        await add(
          aDmarcReport({
            org: 'yahoo.com',
            reportId: 's-2',
            date: may(11),
            rows: [
              { ip: '192.0.2.20', messages: 5, dkim: true, headerFrom: 'example.com' },
              { ip: '198.51.100.9', messages: 2, disposition: 'reject' },
            ],
          }),
        );
        await add(
          aDmarcReport({
            org: 'Mail.Ru',
            reportId: 's-3',
            date: may(12),
            rows: [{ ip: '198.51.100.9', messages: 2, disposition: 'reject' }],
          }),
        );
      });

      it('lists every source, most messages first and ties by address, with its sums, header From domains and reporters', async () => {
        expect(await store.sources(inbox.id, wholeMay)).toEqual([
          {
            ip: '192.0.2.20',
            messages: 105,
            pass: 105,
            fail: 0,
            spfAligned: 40,
            dkimAligned: 105,
            headerFrom: ['news.example.com', 'example.com'],
            reporters: ['google.com', 'yahoo.com'],
          },
          // A record without header_from counts under the report's domain.
          {
            ip: '2001:db8::25',
            messages: 50,
            pass: 0,
            fail: 50,
            spfAligned: 0,
            dkimAligned: 0,
            headerFrom: ['example.com'],
            reporters: ['google.com'],
          },
          {
            ip: '203.0.113.5',
            messages: 50,
            pass: 50,
            fail: 0,
            spfAligned: 50,
            dkimAligned: 0,
            headerFrom: ['example.com'],
            reporters: ['google.com'],
          },
          {
            ip: '198.51.100.9',
            messages: 7,
            pass: 0,
            fail: 7,
            spfAligned: 0,
            dkimAligned: 0,
            headerFrom: ['example.com'],
            reporters: ['google.com', 'Mail.Ru', 'yahoo.com'],
          },
        ]);
      });

      it('gives the first sources of the ranking when asked for a page', async () => {
        expect((await store.sources(inbox.id, wholeMay, { limit: 2 })).map((s) => s.ip)).toEqual([
          '192.0.2.20',
          '2001:db8::25',
        ]);
        const [top] = await store.sources(inbox.id, wholeMay, { limit: 1 });
        expect(top?.reporters).toEqual(['google.com', 'yahoo.com']);
        expect(await store.sources(inbox.id, wholeMay, { limit: 0 })).toEqual([]);
      });

      it('sums a whole month read before more reports came for it, and after retention took one', async () => {
        const before = await store.sources(inbox.id, wholeMay);
        await add(
          aDmarcReport({
            org: 'yahoo.com',
            reportId: 's-4',
            date: may(30),
            rows: [{ ip: '203.0.113.5', messages: 70, spf: true, headerFrom: 'shop.example.com' }],
          }),
          { receivedAt: receivedAt - 1000 },
        );
        expect(await store.sources(inbox.id, wholeMay, { limit: 1 })).toEqual([
          {
            ip: '203.0.113.5',
            messages: 120,
            pass: 120,
            fail: 0,
            spfAligned: 120,
            dkimAligned: 0,
            headerFrom: ['shop.example.com', 'example.com'],
            reporters: ['yahoo.com', 'google.com'],
          },
        ]);
        expect(await store.purge(receivedAt)).toBe(1);
        expect(await store.sources(inbox.id, wholeMay)).toEqual(before);
      });

      it('sums a source over the days of the period only', async () => {
        expect(await store.sources(inbox.id, { from: may(11), to: may(12) })).toEqual(
          [
            {
              ip: '198.51.100.9',
              messages: 4,
              pass: 0,
              fail: 4,
              spfAligned: 0,
              dkimAligned: 0,
              headerFrom: ['example.com'],
              reporters: ['Mail.Ru', 'yahoo.com'],
            },
            {
              ip: '192.0.2.20',
              messages: 5,
              pass: 5,
              fail: 0,
              spfAligned: 0,
              dkimAligned: 5,
              headerFrom: ['example.com'],
              reporters: ['yahoo.com'],
            },
          ].sort((a, b) => b.messages - a.messages),
        );
      });
    });

    describe('TLS totals', () => {
      it('sums sessions per policy and failure details per kind, with absent hosts as null', async () => {
        await add(
          aTlsReport({
            org: 'google.com',
            reportId: 'gt-1',
            date: may(7),
            policies: [
              {
                type: 'sts',
                domain: 'example.com',
                success: 1000,
                failures: [
                  {
                    resultType: 'certificate-expired',
                    count: 30,
                    sendingMtaIp: '209.85.220.41',
                    receivingMxHostname: 'mx1.example.com',
                  },
                  {
                    resultType: 'starttls-not-supported',
                    count: 5,
                    sendingMtaIp: null,
                    receivingMxHostname: null,
                  },
                ],
              },
              { type: 'no-policy-found', domain: 'mail.example.com', success: 20 },
            ],
          }),
        );
        await add(
          aTlsReport({
            org: 'microsoft.com',
            reportId: 'mt-1',
            date: may(8),
            policies: [
              {
                type: 'sts',
                domain: 'example.com',
                success: 400,
                failures: [
                  {
                    resultType: 'certificate-expired',
                    count: 10,
                    sendingMtaIp: '209.85.220.41',
                    receivingMxHostname: 'mx1.example.com',
                  },
                ],
              },
            ],
          }),
        );
        await add(
          aDmarcReport({
            org: 'google.com',
            reportId: 'd-7',
            date: may(7),
            rows: [{ ip: '192.0.2.1', messages: 9 }],
          }),
        );
        expect(await store.tlsTotals(inbox.id, wholeMay)).toEqual({
          reports: 2,
          sessions: { success: 1420, failure: 45 },
          policies: [
            { type: 'sts', domain: 'example.com', success: 1400, failure: 45 },
            { type: 'no-policy-found', domain: 'mail.example.com', success: 20, failure: 0 },
          ],
          failures: [
            {
              resultType: 'certificate-expired',
              receivingMxHostname: 'mx1.example.com',
              sendingMtaIp: '209.85.220.41',
              count: 40,
            },
            {
              resultType: 'starttls-not-supported',
              receivingMxHostname: null,
              sendingMtaIp: null,
              count: 5,
            },
          ],
        });
        expect(await store.tlsTotals(inbox.id, { from: may(8), to: may(9) })).toMatchObject({
          reports: 1,
          sessions: { success: 400, failure: 10 },
        });
        expect(await store.tlsTotals(inbox.id, { from: may(9), to: may(9) })).toEqual({
          reports: 0,
          sessions: { success: 0, failure: 0 },
          policies: [],
          failures: [],
        });
      });
    });

    describe('the period', () => {
      it("counts a report on its date, the UTC day of its period's midpoint, both ends of the period included", async () => {
        for (const [day, messages] of [
          [9, 1],
          [10, 10],
          [15, 100],
          [20, 1000],
          [21, 10000],
        ] as const) {
          await add(
            aDmarcReport({
              org: 'google.com',
              reportId: `day-${day}`,
              date: may(day),
              rows: [{ ip: '192.0.2.1', messages }],
            }),
          );
        }
        // From 22:00 on the 20th to 21:00 on the 21st (a receiver in its own time zone): the 21st.
        const skewed = aDmarcReport({
          org: 'skewed.example',
          reportId: 'tz',
          date: may(20),
          rows: [{ ip: '192.0.2.1', messages: 7 }],
        });
        await add({
          ...skewed,
          begin: dayStart(may(20)) + 22 * 3600,
          end: dayStart(may(21)) + 21 * 3600,
        });
        const period = { from: may(10), to: may(20) };
        expect((await store.dmarcTotals(inbox.id, period)).messages).toBe(1110);
        expect((await store.sources(inbox.id, period))[0]?.messages).toBe(1110);
        expect(
          (await store.received(inbox.id, period, { limit: 10 })).map((r) => r.reportId).sort(),
        ).toEqual(['day-10', 'day-15', 'day-20']);
        expect((await store.dmarcTotals(inbox.id, { from: may(21), to: may(21) })).messages).toBe(
          10007,
        );
        expect((await store.dmarcTotals(inbox.id, { from: may(20), to: may(10) })).messages).toBe(
          0,
        );
      });
    });

    describe('retention', () => {
      it('forgets the reports received before the cutoff and their numbers; what stays sums as if they never came', async () => {
        const kept = anInbox();
        await store.createInbox(kept);
        const old = Date.parse('2023-06-01T00:00:00Z');
        const recent = Date.parse('2024-06-01T00:00:00Z');
        const reports: [ParsedReport, number][] = [];
        for (let day = 1; day <= 40; day++) {
          const date = addDays('2024-04-20', day);
          const receipt = day % 3 === 0 ? old + day : recent + day;
          reports.push([
            aDmarcReport({
              org: day % 2 ? 'google.com' : 'yahoo.com',
              reportId: `r-${day}`,
              date,
              rows: [
                { ip: '192.0.2.1', messages: day, dkim: true },
                {
                  ip: `198.51.100.${day % 5}`,
                  messages: 2 * day,
                  spf: day % 4 === 0,
                  headerFrom: day % 7 ? 'example.com' : 'shop.example.com',
                },
              ],
            }),
            receipt,
          ]);
          reports.push([
            aTlsReport({
              org: 'google.com',
              reportId: `t-${day}`,
              date,
              policies: [
                {
                  success: 10 * day,
                  failures:
                    day % 2
                      ? [
                          {
                            resultType: 'validation-failure',
                            count: day,
                            sendingMtaIp: `203.0.113.${day % 3}`,
                          },
                        ]
                      : [],
                },
              ],
            }),
            receipt,
          ]);
        }
        for (const [report, receipt] of reports) {
          await add(report, { receivedAt: receipt });
          if (receipt >= recent) await add(report, { receivedAt: receipt }, kept.id);
        }
        expect(await store.purge(recent)).toBe(
          reports.filter(([, receipt]) => receipt < recent).length,
        );
        expect(await store.purge(recent)).toBe(0);
        for (const period of [
          { from: '2024-04-21', to: '2024-05-30' },
          { from: '2024-04-25', to: '2024-05-02' },
          wholeMay,
        ]) {
          expect(await store.dmarcTotals(inbox.id, period)).toEqual(
            await store.dmarcTotals(kept.id, period),
          );
          expect(await store.sources(inbox.id, period)).toEqual(
            await store.sources(kept.id, period),
          );
          expect(await store.tlsTotals(inbox.id, period)).toEqual(
            await store.tlsTotals(kept.id, period),
          );
          expect(await store.received(inbox.id, period, { limit: 100 })).toEqual(
            await store.received(kept.id, period, { limit: 100 }),
          );
        }
        // A forgotten report sent again is a new report.
        const [forgotten] = reports.find(([, receipt]) => receipt < recent)!;
        expect(await add(forgotten, { receivedAt: recent + 1 })).toEqual({ duplicate: false });
        expect(await store.purge(0)).toBe(0);
      });
    });

    describeGeneratedMonths(() => ({ store, inbox }));

    it('refuses work once closed', async () => {
      await store.close();
      await expect(store.inbox(inbox.id)).rejects.toThrow();
      await expect(store.dmarcTotals(inbox.id, wholeMay)).rejects.toThrow();
      await expect(store.sources(inbox.id, wholeMay)).rejects.toThrow();
    });
  });
}
