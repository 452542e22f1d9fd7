import type { Message } from './catalog.js';
import { en } from './en.js';
import { ru } from './ru.js';

/**
 * The languages of the pages (and, later, of cards and badges): the language comes from `?lang=`
 * when it names one, else from Accept-Language (RFC 9110 §12.5.4), else English. JSON error codes
 * never change with the language (docs/pages.md).
 */

export const languages = ['en', 'ru'] as const;
export type Lang = (typeof languages)[number];
export type MessageKey = keyof typeof en;

export { formatDuration } from './durations.js';
export { formatInterval } from './intervals.js';

const catalogs: Record<Lang, Readonly<Record<MessageKey, Message>>> = { en, ru };

/** Each language's name in itself, for the language switch. */
export const languageNames: Record<Lang, string> = { en: 'English', ru: 'Русский' };

export function isLang(value: string | undefined): value is Lang {
  return value === 'en' || value === 'ru';
}

/**
 * `?lang=` first (a value that names no language is ignored), then the Accept-Language range with
 * the highest q whose primary subtag we speak (`ru-RU` is Russian); ties go to the earlier range.
 * A `*` range or nothing usable means English.
 */
export function pickLanguage(query: string | undefined, acceptLanguage: string | undefined): Lang {
  const asked = query?.trim().toLowerCase();
  if (isLang(asked)) return asked;
  let best: { lang: Lang; q: number } | undefined;
  for (const range of (acceptLanguage ?? '').split(',')) {
    const [tag = '', ...parameters] = range.split(';').map((part) => part.trim());
    const primary = tag.toLowerCase().split('-')[0];
    if (!isLang(primary)) continue;
    const qParameter = parameters.find((parameter) => /^q=/i.test(parameter));
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue;
    if (best === undefined || q > best.q) best = { lang: primary, q };
  }
  return best?.lang ?? 'en';
}

export type Params = Record<string, string | number>;
export type Translate = (key: MessageKey, params?: Params) => string;

/** Fills `{name}` placeholders; a plural picks its form by the `n` parameter. */
export function formatMessage(lang: Lang, message: Message, params: Params = {}): string {
  const text =
    typeof message === 'string'
      ? message
      : ((message as Record<string, string>)[pluralRules(lang).select(Number(params.n ?? 0))] ??
        message.other);
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

const rules = new Map<Lang, Intl.PluralRules>();
function pluralRules(lang: Lang): Intl.PluralRules {
  let rule = rules.get(lang);
  if (rule === undefined) {
    rule = new Intl.PluralRules(lang);
    rules.set(lang, rule);
  }
  return rule;
}

/** Whether a key built from data (a status, a rule's name) is one of the catalogs'. */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

export function translator(lang: Lang): Translate {
  const catalog = catalogs[lang];
  return (key, params) => formatMessage(lang, catalog[key], params);
}

/**
 * Each tool's own texts stand in the catalogs under its name (docs/registry.md): its name
 * (`tool.ip`), the form's label, hint and placeholder, the badge's label, the card's kind and
 * its note when nothing is listed. A tool's definition states its name, and the compiler checks
 * that both catalogs hold every one of these keys for it.
 */
export type ToolTextKey<Name extends string> =
  | `tool.${Name}`
  | `tool.${Name}.label`
  | `tool.${Name}.hint`
  | `tool.${Name}.placeholder`
  | `badge.tool.${Name}`
  | `card.kind.${Name}`
  | `card.clean.${Name}`;

/** One of a tool's texts, for code that knows the tool only by its name. */
export function toolText(
  t: Translate,
  prefix: 'tool' | 'badge.tool' | 'card.kind' | 'card.clean',
  tool: string,
): string {
  return t(`${prefix}.${tool}` as MessageKey);
}

/** The raw messages of some keys, for the check page's script (it formats them itself). */
export function messagesFor(lang: Lang, keys: readonly MessageKey[]): Record<string, Message> {
  return Object.fromEntries(keys.map((key) => [key, catalogs[lang][key]]));
}

const dateFormats = new Map<Lang, Intl.DateTimeFormat>();

/**
 * A moment as the reader's language writes it, in UTC (the page is the same for every reader, so
 * it cannot know their time zone; the page script rewrites it in the reader's own zone).
 */
export function formatDate(lang: Lang, iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  let format = dateFormats.get(lang);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(lang, {
      dateStyle: 'long',
      timeStyle: 'short',
      timeZone: 'UTC',
    });
    dateFormats.set(lang, format);
  }
  return `${format.format(date)} UTC`;
}
