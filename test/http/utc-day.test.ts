import { describe, expect, it } from 'vitest';
import { createUtcDays, utcDayOf } from '../../src/http/utc-day.js';

describe('utcDayOf', () => {
  it('gives the UTC date and the bounds of its day', () => {
    const day = utcDayOf(new Date('2026-11-26T23:59:59.999Z'));
    expect(day.key).toBe('2026-11-26');
    expect(new Date(day.startsAt).toISOString()).toBe('2026-11-26T00:00:00.000Z');
    expect(new Date(day.endsAt).toISOString()).toBe('2026-11-27T00:00:00.000Z');
  });

  it('counts a day before 1970 from its own midnight', () => {
    expect(utcDayOf(new Date('1969-12-31T12:00:00Z')).key).toBe('1969-12-31');
    expect(new Date(utcDayOf(new Date('1969-12-31T12:00:00Z')).startsAt).toISOString()).toBe(
      '1969-12-31T00:00:00.000Z',
    );
  });
});

describe('createUtcDays', () => {
  it('follows the clock forwards over midnight and back again', () => {
    const dayAt = createUtcDays();
    const keys = [
      '2026-11-26T12:00:00Z',
      '2026-11-26T23:59:59.999Z',
      '2026-11-27T00:00:00Z',
      '2026-11-26T08:00:00Z',
      '2025-01-01T00:00:00Z',
    ].map((time) => dayAt(new Date(time)).key);
    expect(keys).toEqual(['2026-11-26', '2026-11-26', '2026-11-27', '2026-11-26', '2025-01-01']);
  });
});
