import { seededRandom } from '../../fixtures/seeded-random.js';
import type { DmarcAggregateReport, DmarcRow, TlsReport } from '../../src/reports/index.js';

/**
 * A year of a busy domain's reports for the summary's benchmark (docs/benchmarks.md): 10,000
 * aggregate reports of 100 records (a million records) over 365 days from six reporters, the big
 * mailbox providers sending most, about 400 sending addresses whose volumes fall off as a power
 * law (a few ESP pools send most mail, a long tail sends a little), a few forwarders that break
 * SPF, a few sources that fail outright; and a TLS report a day from two reporters. Made by a
 * seeded generator: every run loads the same year.
 */

export const yearDomain = 'example.com';
/** The year's first and last dates: its periods have ragged ends, as real ones do. */
export const yearStart = '2024-12-16';
export const yearEnd = '2025-12-15';
export const yearDays = 365;

const reporters: [org: string, weight: number][] = [
  ['google.com', 10],
  ['Outlook.com', 8],
  ['yahoo.com', 4],
  ['Mail.Ru', 2],
  ['comcast.net', 2],
  ['web.de', 1],
];

export interface YearShape {
  reports: number;
  recordsPerReport: number;
  addresses: number;
}

export const busyYear: YearShape = { reports: 10_000, recordsPerReport: 100, addresses: 400 };

function dayStart(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / 1000;
}

export function dateOfDay(day: number): string {
  return new Date((dayStart(yearStart) + day * 86_400) * 1000).toISOString().slice(0, 10);
}

/** Address k of the pool: IPv4 in the benchmarking range (RFC 2544's 198.18.0.0/15), some IPv6. */
function address(k: number): string {
  return k % 10 === 9
    ? `2001:db8:${(k >> 8).toString(16)}::${(k & 0xff).toString(16)}`
    : `198.${18 + (k >> 16)}.${(k >> 8) & 0xff}.${k & 0xff}`;
}

interface Source {
  ip: string;
  /** Cumulative weight, for picking by volume. */
  upTo: number;
  /** What its mail does: aligned, forwarded (DKIM only), failing. */
  kind: 'aligned' | 'forwarded' | 'failing';
}

function sourcesOf(shape: YearShape, random: () => number): Source[] {
  let total = 0;
  const sources = Array.from({ length: shape.addresses }, (_, k) => {
    total += 1 / (k + 1) ** 0.9;
    const roll = random();
    return {
      ip: address(k),
      upTo: total,
      kind: (k > 20 && roll < 0.05
        ? 'failing'
        : roll < 0.12
          ? 'forwarded'
          : 'aligned') as Source['kind'],
    };
  });
  return sources.map((source) => ({ ...source, upTo: source.upTo / total }));
}

function pick(sources: readonly Source[], roll: number): Source {
  let low = 0;
  let high = sources.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sources[middle]!.upTo < roll) low = middle + 1;
    else high = middle;
  }
  return sources[low]!;
}

function row(source: Source, random: () => number): DmarcRow {
  const messages = Math.max(1, Math.round(Math.exp(random() * 6)));
  const dkim = source.kind !== 'failing' && random() < 0.97;
  const spf = source.kind === 'aligned' && random() < 0.95;
  const headerFrom =
    random() < 0.85 ? yearDomain : random() < 0.7 ? `news.${yearDomain}` : `shop.${yearDomain}`;
  return {
    ip: source.ip,
    messages,
    disposition: dkim || spf ? 'none' : random() < 0.8 ? 'reject' : 'quarantine',
    dkimAligned: dkim,
    spfAligned: spf,
    reasons: source.kind === 'forwarded' ? [{ type: 'forwarded', comment: null }] : [],
    headerFrom,
    envelopeFrom: spf ? headerFrom : `bounce.esp-${source.ip.length}.example.net`,
    envelopeTo: null,
    dkim: [
      {
        domain: dkim ? headerFrom : 'esp.example.net',
        selector: 's1',
        result: dkim ? 'pass' : 'fail',
      },
    ],
    spf: [
      {
        domain: spf ? headerFrom : 'esp.example.net',
        scope: 'mfrom',
        result: spf ? 'pass' : 'softfail',
      },
    ],
  };
}

/** The year's aggregate reports, in the order they arrive (day by day). */
export function* yearOfReports(shape: YearShape = busyYear): Generator<DmarcAggregateReport> {
  const random = seededRandom(2025);
  const sources = sourcesOf(shape, random);
  const weights = reporters.reduce((sum, [, weight]) => sum + weight, 0);
  for (let index = 0; index < shape.reports; index++) {
    const day = Math.floor((index * yearDays) / shape.reports);
    let roll = random() * weights;
    const [org] = reporters.find(([, weight]) => (roll -= weight) < 0) ?? reporters[0]!;
    const begin = dayStart(dateOfDay(day));
    yield {
      kind: 'dmarc',
      org,
      email: `dmarc-reports@${org.toLowerCase()}`,
      reportId: `${org}-${index}`,
      begin,
      end: begin + 86_399,
      policy: {
        domain: yearDomain,
        p: 'quarantine',
        sp: null,
        np: null,
        pct: 100,
        adkim: 'r',
        aspf: 'r',
        testing: null,
      },
      rows: Array.from({ length: shape.recordsPerReport }, () =>
        row(pick(sources, random()), random),
      ),
    };
  }
}

/** A TLS report a day from each of two reporters. */
export function* yearOfTlsReports(): Generator<TlsReport> {
  const random = seededRandom(8460);
  for (let day = 0; day < yearDays; day++) {
    for (const org of ['google.com', 'microsoft.com']) {
      const begin = dayStart(dateOfDay(day));
      const failures = Math.floor(random() * 30);
      yield {
        kind: 'tls',
        org,
        contact: `smtp-tls-reporting@${org}`,
        reportId: `${org}-tls-${day}`,
        begin,
        end: begin + 86_399,
        policies: [
          {
            type: 'sts',
            domain: yearDomain,
            mxHosts: [`mx1.${yearDomain}`, `mx2.${yearDomain}`],
            success: 20_000 + Math.floor(random() * 5000),
            failure: failures,
            failures:
              failures === 0
                ? []
                : [
                    {
                      resultType: random() < 0.7 ? 'certificate-expired' : 'starttls-not-supported',
                      sendingMtaIp: `209.85.${Math.floor(random() * 4)}.${Math.floor(random() * 250)}`,
                      receivingMxHostname: `mx${1 + Math.floor(random() * 2)}.${yearDomain}`,
                      receivingIp: null,
                      count: failures,
                    },
                  ],
          },
        ],
      };
    }
  }
}
