/**
 * Whether the client would rather have HTML than JSON (RFC 9110 §12.5.1): a browser lists
 * `text/html` first; an API client asks for `application/json` or sends `*` / `*` (curl), and gets
 * JSON. Ties go to JSON: this is an API first.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  let html = 0;
  let json = 0;
  for (const range of accept.split(',')) {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const qParameter = parameters.find((parameter) => parameter.startsWith('q='));
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    if (!Number.isFinite(q)) continue;
    if (type === 'text/html' || type === 'application/xhtml+xml') html = Math.max(html, q);
    else if (type === 'application/json' || type === 'application/*') json = Math.max(json, q);
  }
  return html > 0 && html > json;
}
