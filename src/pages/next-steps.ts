import { html } from 'hono/html';
import type { MessageKey, Translate } from '../i18n/index.js';
import type { NextStep, ShareListing, ShareSummary } from '../share/index.js';
import type { Html } from './layout.js';

/**
 * What to do about each listing, in plain words with the operator's pages as links: "Listed on
 * Spamhaus ZEN: see why on its lookup page, then ask for removal on its delisting page". One
 * item per list (per list of each address, for a domain's sender IPs and a pool's addresses),
 * from the URLs the result carries (`lookup_url`, `delist_url`).
 */

/** Marks where a link goes in a translated sentence; no catalog text holds it. */
const mark = '\u0000';

/**
 * A catalog sentence with some of its placeholders filled by HTML (links), the others by text:
 * the text parts stay escaped, the sentence keeps its language's word order.
 */
function sentenceWith(
  t: Translate,
  key: MessageKey,
  text: Record<string, string>,
  parts: Record<string, Html>,
): Html {
  const marks = Object.fromEntries(
    Object.keys(parts).map((name) => [name, `${mark}${name}${mark}`]),
  );
  const pieces = t(key, { ...text, ...marks }).split(mark);
  return html`${pieces.map((piece, index) => (index % 2 === 1 ? (parts[piece] ?? piece) : piece))}`;
}

function link(url: string, words: string): Html {
  return html`<a href="${url}" rel="nofollow noopener">${words}</a>`;
}

/** One list's step: which of its pages the zone list gives decides the sentence. */
function stepSentence(step: NextStep, t: Translate): Html {
  const lookup = step.lookupUrl ? link(step.lookupUrl, t('next.lookupPage')) : undefined;
  const delist = step.delistUrl ? link(step.delistUrl, t('next.delistPage')) : undefined;
  const list = { list: step.list };
  if (lookup && delist) return sentenceWith(t, 'next.both', list, { lookup, delist });
  if (lookup) return sentenceWith(t, 'next.lookupOnly', list, { lookup });
  if (delist) return sentenceWith(t, 'next.delistOnly', list, { delist });
  return sentenceWith(t, 'next.none', list, {});
}

function items(listing: ShareListing, t: Translate): Html[] {
  return (listing.steps ?? []).map((step) => {
    const sentence = stepSentence(step, t);
    const ip = listing.address?.ip;
    return ip ? sentenceWith(t, 'next.address', { ip }, { step: sentence }) : sentence;
  });
}

/**
 * The section, or nothing when no listing carries its pages (nothing listed, or a result stored
 * before results carried them).
 */
export function nextStepsSection(summary: ShareSummary, t: Translate): Html | string {
  const steps = summary.listings.flatMap((listing) => items(listing, t));
  if (steps.length === 0) return '';
  const informational = summary.listings.some(
    (listing) => listing.severity === 'info' && (listing.steps?.length ?? 0) > 0,
  );
  return html`<h2>${t('next.heading')}</h2>
    <ul class="next-steps">
      ${steps.map((step) => html`<li>${step}</li>`)}
    </ul>
    ${informational ? html`<p class="note">${t('next.informational')}</p>` : ''}`;
}
