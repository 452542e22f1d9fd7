/**
 * The tag-list syntax of DKIM key records (RFC 6376 §3.2), which DMARC (RFC 7489 §6.4), BIMI,
 * MTA-STS (RFC 8461 §3.1) and TLS-RPT (RFC 8460 §3) records borrow: `tag=value` pairs separated
 * by `;`, a trailing `;` allowed, a tag named twice making the whole list invalid (§3.2). The
 * records differ in where white space may stand and in the case of tag names, so each reader
 * passes its grammar's rules; the text is read as the DNS server sent it, tabs and line breaks
 * included (they are white space to these grammars, not characters to replace).
 */

export type TagList = { ok: true; tags: Map<string, string> } | { ok: false; reason: string };

export interface TagListRules {
  /** White space at either end of a part: around `;` (and around `=` where allowed). */
  space: RegExp;
  /** White space may stand on either side of `=`: DKIM's FWS (§3.2), DMARC's *WSP (§6.4). */
  spaceAroundEquals: boolean;
  /** Tag names match in any case and are kept lower-cased (DMARC's ABNF literals, RFC 5234 §2.3). */
  anyCase: boolean;
  /** What a tag name is. */
  name: RegExp;
}

/** RFC 6376 §3.2: FWS (SP, HTAB, CRLF) anywhere around a tag; tag-name = ALPHA *(ALPHA / DIGIT / "_"). */
export const dkimTagRules: TagListRules = {
  space: /^[ \t\r\n]+|[ \t\r\n]+$/g,
  spaceAroundEquals: true,
  anyCase: false,
  name: /^[A-Za-z][A-Za-z0-9_]*$/,
};

/** RFC 7489 §6.4: *WSP (SP, HTAB) around `=` and `;`, tag names as case-insensitive literals. */
export const dmarcTagRules: TagListRules = {
  space: /^[ \t]+|[ \t]+$/g,
  spaceAroundEquals: true,
  anyCase: true,
  name: /^[A-Za-z][A-Za-z0-9_]*$/,
};

/**
 * RFC 8460 §3 and RFC 8461 §3.1: *WSP around `;` only (`field-delim`), `name=value` with nothing
 * between, case-sensitive names of at most 32 letters, digits, `_`, `-` and `.`.
 */
export const reportingTagRules: TagListRules = {
  space: /^[ \t]+|[ \t]+$/g,
  spaceAroundEquals: false,
  anyCase: false,
  name: /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/,
};

export function parseTagList(record: string, rules: TagListRules = dkimTagRules): TagList {
  const trim = (text: string) => text.replace(rules.space, '');
  const tags = new Map<string, string>();
  const parts = record.split(';');
  // A trailing ";" leaves one empty part; an empty part elsewhere is an empty tag-spec.
  if (parts.length > 1 && trim(parts[parts.length - 1]!) === '') parts.pop();
  for (const part of parts) {
    const spec = trim(part);
    const equals = spec.indexOf('=');
    if (equals < 0) return { ok: false, reason: `"${spec}" is not tag=value` };
    const written = spec.slice(0, equals);
    const name = rules.spaceAroundEquals ? trim(written) : written;
    if (!rules.name.test(name)) return { ok: false, reason: `"${written}" is not a tag name` };
    const value = spec.slice(equals + 1);
    if (!rules.spaceAroundEquals && trim(value) !== value) {
      return { ok: false, reason: `white space after ${name}= (no space may stand beside "=")` };
    }
    const key = rules.anyCase ? name.toLowerCase() : name;
    if (tags.has(key)) return { ok: false, reason: `the tag ${key} appears twice` };
    tags.set(key, rules.spaceAroundEquals ? trim(value) : value);
  }
  return { ok: true, tags };
}
