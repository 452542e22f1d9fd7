import type { MessageKey, Translate } from './index.js';

/**
 * An interval as people say it ("every hour", "every 15 minutes"; «каждый час», «каждые 2 часа»,
 * «каждые 5 часов», «каждую минуту»), not "3600 seconds": the largest unit that divides it
 * exactly (a week, a day, an hour, a minute, else seconds), one of it said alone, more counted
 * in the language's plural forms (Russian's four CLDR categories, whose `one` is also 21, 31...).
 */

const units = [
  { seconds: 604_800, name: 'week' },
  { seconds: 86_400, name: 'day' },
  { seconds: 3_600, name: 'hour' },
  { seconds: 60, name: 'minute' },
  { seconds: 1, name: 'second' },
] as const;

export function formatInterval(t: Translate, seconds: number): string {
  const whole = Math.max(1, Math.round(seconds));
  const unit = units.find((candidate) => whole % candidate.seconds === 0)!;
  const n = whole / unit.seconds;
  if (n === 1) return t(`interval.${unit.name}.single` as MessageKey);
  return t(`interval.${unit.name}s` as MessageKey, { n });
}
