import { expect, it } from 'vitest';
import type {
  DmarcTotals,
  Inbox,
  ParsedReport,
  Period,
  ReportStore,
  SourceTotals,
  TlsTotals,
} from '../../../src/reports/index.js';
import { reportDate } from '../../../src/reports/index.js';
import { seededRandom } from '../../../fixtures/seeded-random.js';
import { aDmarcReport, addDays, aTlsReport, type RowSpec } from './report-builder.js';

/**
 * A generated quarter across a new year (2023-11-20 to 2024-02-10): four reporters sending a
 * report a day each (some days missed), thirty sending addresses of which a few fail, TLS reports
 * with failures. Each answer of the store is compared with the test's own count of the generated
 * reports, for periods that start and end inside months, cover whole months, lie within one, or
 * reach past the data: the periods a store with month rollups must add up right.
 */

const first = '2023-11-20';
const days = 83;
const reporters = ['google.com', 'Outlook.com', 'yahoo.com', 'Mail.Ru'];
const addresses = Array.from({ length: 30 }, (_, i) =>
  i < 20 ? `192.0.2.${10 + i}` : i < 26 ? `2001:db8::${(i - 19).toString(16)}` : `198.51.100.${i}`,
);

function generate(): ParsedReport[] {
  const random = seededRandom(41);
  const reports: ParsedReport[] = [];
  for (let day = 0; day < days; day++) {
    const date = addDays(first, day);
    for (const org of reporters) {
      if (random() < 0.1) continue;
      const rows: RowSpec[] = [];
      for (const [index, ip] of addresses.entries()) {
        if (random() < 0.5) continue;
        const failing = index >= 26;
        rows.push({
          ip,
          // Heavier senders first, with spread: a ranking with few ties.
          messages: 1 + Math.floor(random() * (300 - index * 9)),
          dkim: !failing && random() < 0.9,
          spf: !failing && random() < 0.7,
          disposition: failing ? (random() < 0.5 ? 'reject' : 'quarantine') : 'none',
          headerFrom: random() < 0.1 ? 'news.example.com' : random() < 0.05 ? null : 'example.com',
        });
      }
      reports.push(aDmarcReport({ org, reportId: `${org}-${date}`, date, rows }));
    }
    if (random() < 0.8) {
      reports.push(
        aTlsReport({
          org: reporters[day % 2]!,
          reportId: `tls-${date}`,
          date,
          policies: [
            {
              success: Math.floor(random() * 5000),
              failures: [
                { resultType: 'certificate-expired', count: Math.floor(random() * 40) },
                {
                  resultType: 'starttls-not-supported',
                  count: Math.floor(random() * 10),
                  sendingMtaIp: `203.0.113.${day % 4}`,
                  receivingMxHostname: day % 5 ? 'mx2.example.com' : null,
                },
              ],
            },
            { type: 'no-policy-found', domain: 'legacy.example.com', success: day },
          ],
        }),
      );
    }
  }
  return reports;
}

const byMessages = (a: { messages: number }, b: { messages: number }) => b.messages - a.messages;
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The test's own count of what the store must answer, from the reports as generated. */
function countBy(reports: readonly ParsedReport[], period: Period) {
  const within = reports.filter((report) => {
    const date = reportDate(report);
    return date >= period.from && date <= period.to;
  });
  const dmarc: DmarcTotals = {
    reports: 0,
    messages: 0,
    pass: 0,
    fail: 0,
    spfAligned: 0,
    dkimAligned: 0,
    dispositions: { none: 0, quarantine: 0, reject: 0 },
    reporters: [],
    daily: [],
  };
  const orgs = new Map<string, { org: string; reports: number; messages: number; pass: number }>();
  const daily = new Map<string, { date: string; pass: number; fail: number }>();
  const sources = new Map<
    string,
    SourceTotals & { h: Map<string, number>; r: Map<string, number> }
  >();
  const tls: TlsTotals = {
    reports: 0,
    sessions: { success: 0, failure: 0 },
    policies: [],
    failures: [],
  };
  const policies = new Map<string, TlsTotals['policies'][number]>();
  const failures = new Map<string, TlsTotals['failures'][number]>();
  for (const report of within) {
    const date = reportDate(report);
    if (report.kind === 'tls') {
      tls.reports++;
      for (const policy of report.policies) {
        tls.sessions.success += policy.success;
        tls.sessions.failure += policy.failure;
        const key = `${policy.type} ${policy.domain}`;
        const entry = policies.get(key) ?? {
          type: policy.type,
          domain: policy.domain,
          success: 0,
          failure: 0,
        };
        entry.success += policy.success;
        entry.failure += policy.failure;
        policies.set(key, entry);
        for (const failure of policy.failures) {
          const fkey = `${failure.resultType} ${failure.receivingMxHostname} ${failure.sendingMtaIp}`;
          const counted = failures.get(fkey) ?? {
            resultType: failure.resultType,
            receivingMxHostname: failure.receivingMxHostname,
            sendingMtaIp: failure.sendingMtaIp,
            count: 0,
          };
          counted.count += failure.count;
          failures.set(fkey, counted);
        }
      }
      continue;
    }
    dmarc.reports++;
    const org = orgs.get(report.org) ?? { org: report.org, reports: 0, messages: 0, pass: 0 };
    org.reports++;
    orgs.set(report.org, org);
    const day = daily.get(date) ?? { date, pass: 0, fail: 0 };
    daily.set(date, day);
    for (const row of report.rows) {
      const pass = row.dkimAligned || row.spfAligned;
      dmarc.messages += row.messages;
      if (pass) dmarc.pass += row.messages;
      else dmarc.fail += row.messages;
      if (row.spfAligned) dmarc.spfAligned += row.messages;
      if (row.dkimAligned) dmarc.dkimAligned += row.messages;
      dmarc.dispositions[row.disposition] += row.messages;
      org.messages += row.messages;
      if (pass) org.pass += row.messages;
      day[pass ? 'pass' : 'fail'] += row.messages;
      const source = sources.get(row.ip) ?? {
        ip: row.ip,
        messages: 0,
        pass: 0,
        fail: 0,
        spfAligned: 0,
        dkimAligned: 0,
        headerFrom: [],
        reporters: [],
        h: new Map(),
        r: new Map(),
      };
      source.messages += row.messages;
      source[pass ? 'pass' : 'fail'] += row.messages;
      if (row.spfAligned) source.spfAligned += row.messages;
      if (row.dkimAligned) source.dkimAligned += row.messages;
      const from = row.headerFrom ?? report.policy.domain;
      source.h.set(from, (source.h.get(from) ?? 0) + row.messages);
      source.r.set(report.org, (source.r.get(report.org) ?? 0) + row.messages);
      sources.set(row.ip, source);
    }
  }
  const ranked = (names: Map<string, number>) =>
    [...names].sort(([a, x], [b, y]) => y - x || byName(a, b)).map(([name]) => name);
  dmarc.reporters = [...orgs.values()].sort((a, b) => byMessages(a, b) || byName(a.org, b.org));
  dmarc.daily = [...daily.values()].sort((a, b) => byName(a.date, b.date));
  tls.policies = [...policies.values()].sort(
    (a, b) => b.success + b.failure - a.success - a.failure || byName(a.type, b.type),
  );
  tls.failures = [...failures.values()].sort(
    (a, b) =>
      b.count - a.count ||
      byName(a.resultType, b.resultType) ||
      byName(a.receivingMxHostname ?? '', b.receivingMxHostname ?? '') ||
      byName(a.sendingMtaIp ?? '', b.sendingMtaIp ?? ''),
  );
  return {
    dmarc,
    sources: [...sources.values()]
      .sort((a, b) => byMessages(a, b) || byName(a.ip, b.ip))
      .map(({ h, r, ...source }) => ({ ...source, headerFrom: ranked(h), reporters: ranked(r) })),
    tls,
  };
}

const periods: [string, Period][] = [
  [
    'from inside a month to inside a month of the next year',
    { from: '2023-11-25', to: '2024-01-31' },
  ],
  ['of whole months across the new year', { from: '2023-12-01', to: '2024-01-31' }],
  ['within one month', { from: '2024-01-05', to: '2024-01-20' }],
  ['from a first of the month to inside the next', { from: '2023-12-01', to: '2024-01-10' }],
  ['from inside a month to its last day', { from: '2023-12-10', to: '2023-12-31' }],
  ['of one day', { from: '2024-01-01', to: '2024-01-01' }],
  ['wider than the reports', { from: '2023-01-01', to: '2024-12-31' }],
];

export function describeGeneratedMonths(given: () => { store: ReportStore; inbox: Inbox }): void {
  it('sums periods cut anywhere through a generated quarter as its reports add up', async () => {
    const { store, inbox } = given();
    const reports = generate();
    // The first half one by one, the rest in batches whose rollup rows are summed before writing.
    const half = Math.floor(reports.length / 2);
    for (const [index, report] of reports.slice(0, half).entries()) {
      await store.addReport(inbox.id, report, {
        via: 'smtp',
        receivedAt: 1_700_000_000_000 + index,
      });
    }
    for (let start = half; start < reports.length; start += 40) {
      const batch = reports.slice(start, start + 40).map((report, i) => ({
        report,
        via: 'imap' as const,
        receivedAt: 1_700_000_000_000 + start + i,
      }));
      expect(await store.addReports(inbox.id, batch)).toEqual(
        batch.map(() => ({ duplicate: false })),
      );
    }
    for (const [label, period] of periods) {
      const expected = countBy(reports, period);
      expect(await store.dmarcTotals(inbox.id, period), label).toEqual(expected.dmarc);
      expect(await store.sources(inbox.id, period), label).toEqual(expected.sources);
      expect(await store.sources(inbox.id, period, { limit: 5 }), label).toEqual(
        expected.sources.slice(0, 5),
      );
      expect(await store.tlsTotals(inbox.id, period), label).toEqual(expected.tls);
    }
  });
}
