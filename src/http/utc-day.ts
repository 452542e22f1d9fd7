/** Quotas count per UTC day: the day's key, and how long until the next one starts. */

export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export function msUntilNextUtcDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return next - now.getTime();
}
