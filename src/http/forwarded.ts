/**
 * The `Forwarded` header of RFC 7239 and its older X-Forwarded-Proto / X-Forwarded-Host cousins:
 * how a proxy tells the server the scheme and host the client used.
 */

/** One forwarded-element: its parameters, names lowercased (§4: names are case-insensitive). */
export type ForwardedElement = Record<string, string>;

/**
 * Parses `Forwarded` (RFC 7239 §4): a comma list of elements, each a semicolon list of
 * `name=value` pairs whose value is a token or a quoted-string (RFC 9110 §5.6.4, with `\`
 * escapes). An element that does not parse is returned empty, so positions still line up with
 * the proxies that wrote them.
 */
export function parseForwarded(header: string): ForwardedElement[] {
  const elements: ForwardedElement[] = [];
  let element: ForwardedElement = {};
  let valid = true;
  let index = 0;
  const finishElement = () => {
    elements.push(valid ? element : {});
    element = {};
    valid = true;
  };
  while (index < header.length) {
    const pair = /^[\s]*([!#$%&'*+.^_`|~0-9A-Za-z-]+)=/.exec(header.slice(index));
    if (!pair) {
      // Skip to the next element: this one is malformed.
      valid = false;
      const comma = header.indexOf(',', index);
      if (comma === -1) break;
      index = comma + 1;
      finishElement();
      continue;
    }
    const name = (pair[1] ?? '').toLowerCase();
    index += pair[0].length;
    let value = '';
    if (header[index] === '"') {
      index++;
      while (index < header.length && header[index] !== '"') {
        if (header[index] === '\\') index++;
        value += header[index] ?? '';
        index++;
      }
      if (header[index] !== '"') valid = false;
      index++;
    } else {
      const token = /^[!#$%&'*+.^_`|~0-9A-Za-z:[\]-]*/.exec(header.slice(index))?.[0] ?? '';
      value = token;
      index += token.length;
    }
    // §4: a parameter must not occur more than once per element.
    if (name in element) valid = false;
    element[name] = value;
    const rest = /^\s*([;,]?)/.exec(header.slice(index));
    index += rest?.[0].length ?? 0;
    if (rest?.[1] === ',') finishElement();
    else if (rest?.[1] !== ';' && index < header.length) {
      valid = false;
      const comma = header.indexOf(',', index);
      if (comma === -1) break;
      index = comma + 1;
      finishElement();
    }
  }
  if (Object.keys(element).length > 0 || !valid) finishElement();
  return elements;
}

/** A comma list such as X-Forwarded-Proto's, one entry per proxy that wrote one. */
export function parseList(header: string | undefined): string[] {
  return header === undefined ? [] : header.split(',').map((entry) => entry.trim());
}

/**
 * The entry the outermost trusted proxy wrote: proxies append, so with `trusted` of them in front
 * of us it is the `trusted`-th from the right (the left-most when fewer were written).
 */
export function entryOfOutermost<T>(entries: readonly T[], trusted: number): T | undefined {
  if (trusted <= 0 || entries.length === 0) return undefined;
  return entries[Math.max(0, entries.length - trusted)];
}

/** `https` or `http`, case-insensitively (RFC 3986 §3.1); anything else is not believed. */
export function schemeOf(value: string | undefined): 'http' | 'https' | undefined {
  const scheme = value?.trim().toLowerCase();
  return scheme === 'http' || scheme === 'https' ? scheme : undefined;
}

const label = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const hostPattern = new RegExp(
  `^(?:${label}(?:\\.${label})*\\.?|\\[[0-9A-Fa-f:.]+\\])(?::\\d{1,5})?$`,
);

/** A host with an optional port (RFC 9110 §7.2's `uri-host [ ":" port ]`), lowercased; else undefined. */
export function hostOf(value: string | undefined): string | undefined {
  const host = value?.trim();
  if (!host || host.length > 260 || !hostPattern.test(host)) return undefined;
  return host.toLowerCase();
}
