/** Quotas count per UTC day: the day's key, and how long until the next one starts. */

const msPerDay = 86_400_000;

export interface UtcDay {
  /** `YYYY-MM-DD`. */
  key: string;
  /** Epoch ms of the day's first and the next day's first millisecond. */
  startsAt: number;
  endsAt: number;
}

export function utcDayOf(now: Date): UtcDay {
  // Epoch days are UTC days: POSIX time has no leap seconds.
  const startsAt = Math.floor(now.getTime() / msPerDay) * msPerDay;
  return { key: now.toISOString().slice(0, 10), startsAt, endsAt: startsAt + msPerDay };
}

/**
 * The day `now` falls in, remembered until the clock leaves it: every quota read asks, and a
 * date formatted per request showed in the profile of a cached check.
 */
export function createUtcDays(): (now: Date) => UtcDay {
  let day = utcDayOf(new Date(0));
  return (now) => {
    const ms = now.getTime();
    if (ms < day.startsAt || ms >= day.endsAt) day = utcDayOf(now);
    return day;
  };
}
