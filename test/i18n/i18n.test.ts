import { describe, expect, it } from 'vitest';
import type { CatalogOf, RussianPlural } from '../../src/i18n/catalog.js';
import { en } from '../../src/i18n/en.js';
import {
  formatDate,
  formatInterval,
  formatMessage,
  pickLanguage,
  translator,
} from '../../src/i18n/index.js';
import { ru } from '../../src/i18n/ru.js';

describe('pickLanguage', () => {
  it.each([
    [undefined, undefined, 'en'],
    ['ru', undefined, 'ru'],
    ['RU', 'en', 'ru'],
    ['en', 'ru', 'en'],
    ['de', 'ru', 'ru'],
    [undefined, 'ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7', 'ru'],
    [undefined, 'en-US,en;q=0.9,ru;q=0.8', 'en'],
    [undefined, 'de-DE,de;q=0.9,ru;q=0.5', 'ru'],
    [undefined, 'de, fr', 'en'],
    [undefined, 'en;q=0.2, ru;q=0.8', 'ru'],
    [undefined, 'ru;q=0, en;q=0.1', 'en'],
    [undefined, '*', 'en'],
    [undefined, 'ru;q=abc', 'en'],
  ] as const)('?lang=%s with Accept-Language %s is %s', (query, header, lang) => {
    expect(pickLanguage(query, header)).toBe(lang);
  });
});

describe('messages', () => {
  it('chooses Russian plural forms by CLDR category', () => {
    const t = translator('ru');
    expect(t('count.found', { n: 1 })).toBe('найден 1 адрес');
    expect(t('count.found', { n: 3 })).toBe('найдено 3 адреса');
    expect(t('count.found', { n: 8 })).toBe('найдено 8 адресов');
    expect(t('count.found', { n: 21 })).toBe('найден 21 адрес');
    expect(t('count.found', { n: 12 })).toBe('найдено 12 адресов');
  });

  it('chooses English plural forms and fills every placeholder', () => {
    const t = translator('en');
    const lists = t('count.listsThatAnswered', { n: 16 });
    expect(t('count.listedOn', { listed: 2, lists })).toBe('listed on 2 of 16 lists that answered');
    expect(t('count.listsThatAnswered', { n: 1 })).toBe('1 list that answered');
    expect(t('count.found', { n: 1 })).toBe('1 address found');
  });

  it('leaves a placeholder it has no value for as it is', () => {
    expect(formatMessage('en', 'a {b} c', {})).toBe('a {b} c');
  });

  it('has the same keys, every one a non-empty text or a complete plural, in both languages', () => {
    expect(Object.keys(ru).sort()).toEqual(Object.keys(en).sort());
    for (const [key, message] of Object.entries(ru)) {
      const english = en[key as keyof typeof en];
      if (typeof english === 'string') expect(typeof message, key).toBe('string');
      else expect(Object.keys(message).sort(), key).toEqual(['few', 'many', 'one', 'other']);
    }
  });

  it('is checked by the compiler: a catalog missing a key does not type-check', () => {
    const { 'site.name': _dropped, ...incomplete } = ru;
    // @ts-expect-error: 'site.name' is missing
    const catalog: CatalogOf<typeof en, RussianPlural> = incomplete;
    expect(catalog).toBeDefined();
  });

  it('writes dates in the reader language, in UTC', () => {
    expect(formatDate('en', '2026-11-25T22:30:00.000Z')).toBe('November 25, 2026 at 10:30 PM UTC');
    expect(formatDate('ru', '2026-11-25T22:30:00.000Z')).toBe('25 ноября 2026 г. в 22:30 UTC');
    expect(formatDate('en', 'not a date')).toBe('not a date');
  });
});

describe('formatInterval', () => {
  it.each([
    [1, 'every second', 'каждую секунду'],
    [45, 'every 45 seconds', 'каждые 45 секунд'],
    [60, 'every minute', 'каждую минуту'],
    [120, 'every 2 minutes', 'каждые 2 минуты'],
    [900, 'every 15 minutes', 'каждые 15 минут'],
    [1260, 'every 21 minutes', 'каждые 21 минуту'],
    [3600, 'every hour', 'каждый час'],
    [5400, 'every 90 minutes', 'каждые 90 минут'],
    [7200, 'every 2 hours', 'каждые 2 часа'],
    [10_800, 'every 3 hours', 'каждые 3 часа'],
    [18_000, 'every 5 hours', 'каждые 5 часов'],
    [43_200, 'every 12 hours', 'каждые 12 часов'],
    [75_600, 'every 21 hours', 'каждые 21 час'],
    [86_400, 'every day', 'каждый день'],
    [172_800, 'every 2 days', 'каждые 2 дня'],
    [432_000, 'every 5 days', 'каждые 5 дней'],
    [604_800, 'every week', 'каждую неделю'],
  ])('says %i seconds as "%s" and «%s»', (seconds, english, russian) => {
    expect(formatInterval(translator('en'), seconds)).toBe(english);
    expect(formatInterval(translator('ru'), seconds)).toBe(russian);
  });
});
