import type { Period } from './store.js';

/**
 * The grains a rollup is kept at. Source rows are kept per day and per month: a period reads its
 * whole months from month rows and only its ragged ends from day rows, so a year is about 12 + 60
 * buckets, not 365 (docs/reports.md, "Storage").
 */
export type Grain = 'd' | 'm';

/** A range of buckets, both ends included; an empty one has its start after its end. */
export interface BucketRange {
  from: string;
  to: string;
}

const noBuckets: BucketRange = { from: '9', to: '0' };

/**
 * A period as three ranges of buckets: the days before its first whole month, its whole months,
 * the days after its last whole month. Always three, some empty, so a statement has one shape.
 */
export interface PeriodBuckets {
  headDays: BucketRange;
  months: BucketRange;
  tailDays: BucketRange;
}

export function periodBuckets(period: Period): PeriodBuckets {
  const { from, to } = period;
  if (from > to) return { headDays: noBuckets, months: noBuckets, tailDays: noBuckets };
  const firstWhole = from.endsWith('-01') ? from : firstOfNextMonth(from);
  const lastWhole = isLastOfMonth(to) ? to : lastOfPreviousMonth(to);
  if (firstWhole > lastWhole) return { headDays: period, months: noBuckets, tailDays: noBuckets };
  return {
    headDays: from < firstWhole ? { from, to: addDays(firstWhole, -1) } : noBuckets,
    months: { from: firstWhole.slice(0, 7), to: lastWhole.slice(0, 7) },
    tailDays: lastWhole < to ? { from: addDays(lastWhole, 1), to } : noBuckets,
  };
}

/**
 * The same buckets with the last whole month read from its day rows instead of its month row: for
 * a store whose month rows of that month are not built yet (the month still being written).
 */
export function lastMonthAsDays(buckets: PeriodBuckets): PeriodBuckets {
  const { headDays, months, tailDays } = buckets;
  if (months.from > months.to) return buckets;
  const first = `${months.to}-01`;
  return {
    headDays,
    months:
      months.from === months.to
        ? noBuckets
        : { from: months.from, to: monthOf(addDays(first, -1)) },
    tailDays: {
      from: first,
      to: tailDays.from <= tailDays.to ? tailDays.to : lastOfPreviousMonth(firstOfNextMonth(first)),
    },
  };
}

/** The month bucket of a date: `YYYY-MM`. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

function utc(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

function iso(time: Date): string {
  return time.toISOString().slice(0, 10);
}

function addDays(date: string, days: number): string {
  const time = utc(date);
  time.setUTCDate(time.getUTCDate() + days);
  return iso(time);
}

function firstOfNextMonth(date: string): string {
  const time = utc(date);
  return iso(new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth() + 1, 1)));
}

function lastOfPreviousMonth(date: string): string {
  const time = utc(date);
  return iso(new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), 0)));
}

function isLastOfMonth(date: string): boolean {
  return addDays(date, 1).endsWith('-01');
}
