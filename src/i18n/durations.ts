import type { MessageKey, Translate } from './index.js';

/**
 * How long something lasted, as people say it ("3 days 4 hours", «3 дня 4 часа»): the two
 * largest units that are not zero, counted in the language's plural forms, rounded down to the
 * minute; under a minute, "less than a minute".
 */

const units = [
  { ms: 86_400_000, key: 'duration.days' },
  { ms: 3_600_000, key: 'duration.hours' },
  { ms: 60_000, key: 'duration.minutes' },
] as const satisfies readonly { ms: number; key: MessageKey }[];

export function formatDuration(t: Translate, ms: number): string {
  let left = Math.max(0, Math.floor(ms));
  const parts: string[] = [];
  for (const unit of units) {
    const n = Math.floor(left / unit.ms);
    left -= n * unit.ms;
    // The largest unit found and the one right after it: "3 days 4 hours", never "3 days 12 minutes".
    if (n > 0) parts.push(t(unit.key, { n }));
    else if (parts.length > 0) break;
    if (parts.length === 2) break;
  }
  return parts.length > 0 ? parts.join(' ') : t('duration.underMinute');
}
