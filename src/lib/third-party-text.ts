/**
 * Text that a third party chooses (a DNS server's TXT strings and names, an SMTP server's
 * replies, an MTA-STS policy body, a DKIM record's tags) as the service may keep and show it:
 * cleaned once, where it enters, so no later reader (a result, a page, a log line, a chat, an
 * e-mail, a watch's state) meets a control character, an invisible direction change or a
 * megabyte of it.
 *
 * Every control character (C0, DEL, C1: a NUL or a newline would split a log line or a header)
 * and every invisible bidirectional or zero-width format character (UAX #9 §2: U+202E turns the
 * rest of a line around, so `moc.knab` reads `bank.com`) becomes U+FFFD, visibly not what it
 * was, as does half of a surrogate pair (no UTF-8 encodes it).
 */

/** C0, DEL and C1 controls; ALM, zero-width and LRM/RLM; LS, PS and the bidi embeddings and overrides; word joiner to the bidi isolates; BOM. */
// eslint-disable-next-line no-control-regex -- the control characters are what is replaced
const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
/** A high surrogate not followed by a low one, or a low one not after a high one. */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Any character outside printable ASCII (U+0020 to U+007E). */
const beyondPrintableAscii = /[^\u0020-\u007e]/;
/** Tabs and line ends: the breaks of a multi-line reply, read as one line. */
const lineBreaks = /[\t\n\v\f\r]+/g;

/** How much of one third-party text is kept: a few hundred characters, ellipsis included. */
export const thirdPartyTextChars = 300;

/** The text with every control and invisible format character replaced by U+FFFD, nothing cut. */
export function replaceUnsafeCharacters(text: string): string {
  // Printable ASCII holds none of them, and most text is that: one quick test for it.
  if (!beyondPrintableAscii.test(text)) return text;
  unsafe.lastIndex = 0;
  loneSurrogate.lastIndex = 0;
  if (!unsafe.test(text) && !loneSurrogate.test(text)) return text;
  return text.replace(unsafe, '\ufffd').replace(loneSurrogate, '\ufffd');
}

/**
 * Third-party text as the service keeps it: tabs and line breaks read as one space (a
 * multi-line SMTP reply is one line), every other unsafe character U+FFFD, and at most
 * `maxChars` characters (code points, so no pair is split), the last of them `…` when cut.
 *
 * @example cleanThirdPartyText('250-mx.example.org\r\n250 \u202eSTARTTLS') // '250-mx.example.org 250 �STARTTLS'
 */
export function cleanThirdPartyText(text: string, maxChars = thirdPartyTextChars): string {
  const cleaned = replaceUnsafeCharacters(text.replace(lineBreaks, ' '));
  // Most texts are short: the code points are counted only past the UTF-16 length's bound.
  if (cleaned.length <= maxChars) return cleaned;
  const points = Array.from(cleaned);
  return points.length <= maxChars ? cleaned : `${points.slice(0, maxChars - 1).join('')}…`;
}
