/**
 * Headers every answer carries (docs/http-hardening.md#headers): `nosniff` so a browser never reads
 * a JSON or SVG answer as another type (a script, an HTML page), and no Referer sent from our
 * pages, whose URLs hold result tokens. HTML pages carry their Content-Security-Policy as well, one
 * policy for every page (src/pages/csp.ts), set where the page is answered.
 */
export const securityHeaders: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};
