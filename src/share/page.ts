import { html, raw } from 'hono/html';
import { describeCoverage, missingParts } from '../reputation/coverage.js';
import type { ShareSummary } from './summary.js';

/**
 * The share page: the result in words, with Open Graph and Twitter card tags pointing at the PNG
 * card so a pasted link unfurls, and the badge's embed snippets. `html` escapes every value
 * interpolated into it, so nothing from a result can become markup.
 */

export interface SharePageLinks {
  page: string;
  card: string;
  badge: string;
  result: string;
}

/**
 * The page's only style, inline and allowed by its hash in the Content-Security-Policy: the page
 * needs no other resource than its card and badge images.
 */
const pageStyle =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#0f172a}' +
  // A name of 63-character labels or an IPv6 address of 39 characters wraps rather than overflows.
  'h1{overflow-wrap:anywhere}' +
  'img.card{width:100%;height:auto;border-radius:12px;border:1px solid #e2e8f0}' +
  'pre{background:#f1f5f9;padding:.75rem;border-radius:8px;overflow-x:auto;white-space:pre-wrap;word-break:break-all}' +
  'li{margin:.25rem 0}';

let pageStyleHash: Promise<string> | undefined;

/** CSP3 §8.4: a hash source is the base64 of the SHA-256 of the element's text, as written. */
async function styleHash(): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(pageStyle));
  return `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`;
}

/**
 * The share page's Content-Security-Policy: nothing runs, nothing loads but the page's own style
 * and the images of the card and badge, nothing frames it, no form posts anywhere.
 */
export async function sharePageSecurityPolicy(links: SharePageLinks): Promise<string> {
  pageStyleHash ??= styleHash();
  const images = new Set(["'self'", new URL(links.card).origin, new URL(links.badge).origin]);
  return [
    "default-src 'none'",
    `style-src ${await pageStyleHash}`,
    `img-src ${[...images].join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const toolNames = { ip: 'IP address', domain: 'Sending domain', pool: 'DNS pool' } as const;

/**
 * The result in one sentence, counting every list: `203.0.113.7: poor, score 0/100; listed on 2 of
 * 16 lists that answered; 2 did not answer.`
 */
export function sentenceOf(summary: ShareSummary): string {
  const score = summary.score === null ? '' : `, score ${summary.score}/100`;
  return `${summary.target}: ${summary.verdict}${score}; ${findings(summary)}.`;
}

function findings(summary: ShareSummary): string {
  const { coverage } = summary;
  if (summary.tool === 'pool') {
    if (summary.checked === 0)
      return `${summary.addresses?.total ?? 0} addresses found, none checked yet`;
    const lists = coverage ? missingParts(coverage) : [];
    return [
      `${summary.listed} of ${summary.checked} addresses listed`,
      ...(lists.length > 0 ? [`lists: ${lists.join(', ')}`] : []),
    ].join('; ');
  }
  const lists = coverage
    ? describeCoverage({ ...coverage, blocking: summary.listed })
    : summary.checked === 0
      ? 'no list answered'
      : summary.listed === 0
        ? `not listed (${summary.checked} lists checked)`
        : `listed on ${summary.listed} of ${summary.checked} lists`;
  const senders =
    summary.tool === 'domain' && summary.addresses && summary.addresses.total > 0
      ? [`${summary.addresses.listed} of ${summary.addresses.total} sender IPs listed`]
      : [];
  return [lists, ...senders].join('; ');
}

/**
 * Beside the ASCII form of a look-alike, and only there: its Unicode form, with why it is not
 * the one shown.
 */
function lookAlikeWarning({ unicode, scripts }: NonNullable<ShareSummary['lookAlike']>): string {
  const mixed = scripts.length > 1 ? scripts.join(' and ') : 'several';
  return `Shown in its ASCII form: its Unicode form, ${unicode}, mixes ${mixed} letters in one label, as names made to look like another name do.`;
}

export async function renderSharePage(
  summary: ShareSummary,
  links: SharePageLinks,
): Promise<string> {
  const title = `${toolNames[summary.tool]} ${summary.target} – Reputation Tools`;
  const description = sentenceOf(summary);
  const markdown = `[![${summary.target}](${links.badge})](${links.page})`;
  const embed = `<a href="${links.page}"><img src="${links.badge}" alt="${summary.target}"></a>`;
  const page = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <meta name="description" content="${description}" />
        <meta property="og:type" content="website" />
        <meta property="og:title" content="${title}" />
        <meta property="og:description" content="${description}" />
        <meta property="og:url" content="${links.page}" />
        <meta property="og:image" content="${links.card}" />
        <meta property="og:image:type" content="image/png" />
        <meta property="og:image:width" content="1200" />
        <meta property="og:image:height" content="630" />
        <meta name="twitter:card" content="summary_large_image" />
        <meta name="twitter:title" content="${title}" />
        <meta name="twitter:description" content="${description}" />
        <meta name="twitter:image" content="${links.card}" />
        ${raw(`<style>${pageStyle}</style>`)}
      </head>
      <body>
        <h1>${toolNames[summary.tool]} ${summary.target}</h1>
        ${summary.lookAlike ? html`<p><strong>${lookAlikeWarning(summary.lookAlike)}</strong></p>` : raw('')}
        <p>${description} Checked ${summary.checkedAt}.</p>
        ${
          summary.listings.length > 0
            ? html`<ul>
                ${summary.listings.map((listing) => html`<li><strong>${listing.list}</strong> (${listing.severity}): ${listing.detail}</li>`)}
              </ul>`
            : raw('')
        }
        <p>
          <img class="card" src="${links.card}" width="1200" height="630" alt="${description}" />
        </p>
        <p><a href="${links.result}">The full result (JSON)</a></p>
        <h2>Embed the badge</h2>
        <p><img src="${links.badge}" alt="${summary.target}" /></p>
        <p>Markdown</p>
        <pre><code>${markdown}</code></pre>
        <p>HTML</p>
        <pre><code>${embed}</code></pre>
      </body>
    </html>`;
  return (await page).toString();
}
