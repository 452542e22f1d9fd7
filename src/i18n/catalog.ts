/**
 * The shape of a language's messages. A message is a text with `{name}` placeholders, or a set of
 * plural forms chosen by the `n` parameter through `Intl.PluralRules` (CLDR categories: English
 * has `one` and `other`; Russian `one`, `few`, `many` and `other`).
 */

export type EnglishPlural = { one: string; other: string };
export type RussianPlural = { one: string; few: string; many: string; other: string };
export type Plural = EnglishPlural | RussianPlural;
export type Message = string | Plural;

/**
 * A catalog with exactly the keys of `Source` (the English catalog), each a text where English
 * has a text and a plural in the language's own forms where English has a plural: a key missing
 * or added in one language is a type error.
 */
export type CatalogOf<Source extends Record<string, Message>, P extends Plural> = {
  readonly [K in keyof Source]: Source[K] extends string ? string : P;
};
