/**
 * The tag-list syntax of DKIM key records (RFC 6376 §3.2), which DMARC (RFC 7489 §6.4), BIMI,
 * MTA-STS (RFC 8461 §3.1) and TLS-RPT (RFC 8460 §3) records borrow: `tag=value` pairs separated
 * by `;`, white space around either side ignored, a trailing `;` allowed. Tag names are
 * case-sensitive. §3.2: a tag named twice makes the whole list invalid.
 */

export type TagList = { ok: true; tags: Map<string, string> } | { ok: false; reason: string };

/** §3.2 tag-name: ALPHA followed by ALPHA, DIGIT or "_". */
const tagName = /^[A-Za-z][A-Za-z0-9_]*$/;

export function parseTagList(record: string): TagList {
  const tags = new Map<string, string>();
  const parts = record.split(';');
  // A trailing ";" leaves one empty part; an empty part elsewhere is an empty tag-spec.
  if (parts.length > 1 && parts[parts.length - 1]!.trim() === '') parts.pop();
  for (const part of parts) {
    const equals = part.indexOf('=');
    if (equals < 0) return { ok: false, reason: `"${part.trim()}" is not tag=value` };
    const name = part.slice(0, equals).trim();
    if (!tagName.test(name)) return { ok: false, reason: `"${name}" is not a tag name` };
    if (tags.has(name)) return { ok: false, reason: `the tag ${name} appears twice` };
    tags.set(name, part.slice(equals + 1).trim());
  }
  return { ok: true, tags };
}

/** The TXT records of `records` whose text starts with `v=<version>` (the tag's own rules). */
export function withVersion(records: readonly string[], version: RegExp): string[] {
  return records.filter((record) => version.test(record));
}
