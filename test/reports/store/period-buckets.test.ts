import { describe, expect, it } from 'vitest';
import { lastMonthAsDays, periodBuckets } from '../../../src/reports/index.js';

const none = { from: '9', to: '0' };

describe('a period in rollup buckets', () => {
  it.each([
    [
      'within one month',
      '2024-05-03',
      '2024-05-20',
      { from: '2024-05-03', to: '2024-05-20' },
      none,
      none,
    ],
    ['a whole month', '2024-02-01', '2024-02-29', none, { from: '2024-02', to: '2024-02' }, none],
    [
      'ragged at both ends',
      '2023-11-25',
      '2024-02-10',
      { from: '2023-11-25', to: '2023-11-30' },
      { from: '2023-12', to: '2024-01' },
      { from: '2024-02-01', to: '2024-02-10' },
    ],
    [
      'from a first to inside a month',
      '2024-01-01',
      '2024-02-10',
      none,
      { from: '2024-01', to: '2024-01' },
      { from: '2024-02-01', to: '2024-02-10' },
    ],
    [
      'from inside a month to a last day',
      '2024-01-15',
      '2024-03-31',
      { from: '2024-01-15', to: '2024-01-31' },
      { from: '2024-02', to: '2024-03' },
      none,
    ],
    [
      'across two months with no whole one',
      '2024-04-15',
      '2024-05-14',
      { from: '2024-04-15', to: '2024-05-14' },
      none,
      none,
    ],
    [
      'a year of 365 days',
      '2023-06-08',
      '2024-06-06',
      { from: '2023-06-08', to: '2023-06-30' },
      { from: '2023-07', to: '2024-05' },
      { from: '2024-06-01', to: '2024-06-06' },
    ],
    ['one day', '2024-05-31', '2024-05-31', { from: '2024-05-31', to: '2024-05-31' }, none, none],
    ['backwards', '2024-05-31', '2024-05-01', none, none, none],
  ])(
    'reads %s (%s to %s) as its ragged ends by day and its whole months by month',
    (_, from, to, headDays, months, tailDays) => {
      expect(periodBuckets({ from, to })).toEqual({ headDays, months, tailDays });
    },
  );

  it.each([
    [
      'a whole month',
      '2024-02-01',
      '2024-02-29',
      none,
      none,
      { from: '2024-02-01', to: '2024-02-29' },
    ],
    [
      'ragged at both ends',
      '2023-11-25',
      '2024-02-10',
      { from: '2023-11-25', to: '2023-11-30' },
      { from: '2023-12', to: '2023-12' },
      { from: '2024-01-01', to: '2024-02-10' },
    ],
    [
      'from inside a month to a last day',
      '2024-01-15',
      '2024-03-31',
      { from: '2024-01-15', to: '2024-01-31' },
      { from: '2024-02', to: '2024-02' },
      { from: '2024-03-01', to: '2024-03-31' },
    ],
    [
      'within one month',
      '2024-05-03',
      '2024-05-20',
      { from: '2024-05-03', to: '2024-05-20' },
      none,
      none,
    ],
  ])(
    'reads %s (%s to %s) with its last whole month by day, when that month is not built',
    (_, from, to, headDays, months, tailDays) => {
      expect(lastMonthAsDays(periodBuckets({ from, to }))).toEqual({ headDays, months, tailDays });
    },
  );
});
