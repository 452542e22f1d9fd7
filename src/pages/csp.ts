import type { CaptchaProviderFacts } from '../http/index.js';

/**
 * The Content-Security-Policy of the HTML pages (docs/pages.md): nothing inline, nothing from
 * elsewhere except the configured captcha provider's widget (its `cspSources`). The page script and stylesheet are
 * same-origin files; the page's data block is `type="application/json"`, which CSP does not
 * treat as script. `frame-ancestors 'none'`: no page of ours needs to be framed.
 */
export function pageContentSecurityPolicy(captcha?: CaptchaProviderFacts): string {
  const widget = captcha ? ` ${captcha.cspSources.join(' ')}` : '';
  return [
    "default-src 'none'",
    `script-src 'self'${widget}`,
    `style-src 'self'${widget}`,
    `img-src 'self' data:${widget}`,
    `connect-src 'self'${widget}`,
    ...(captcha ? [`frame-src${widget}`] : []),
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
