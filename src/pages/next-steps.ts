import { html } from 'hono/html';
import type { MessageKey, Translate } from '../i18n/index.js';
import { type MailProvider, rulePages } from '../reputation/index.js';
import type { NextStep, ShareListing, ShareSummary } from '../share/index.js';
import { addressHtml } from './address-html.js';
import type { Html } from './layout.js';

/**
 * What to do about each listing and about reverse DNS, in plain words with the operator's pages as links: "Listed on
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

/** The providers' names as their pages title them; the same in every language. */
const providerNames: Record<MailProvider, string> = {
  gmail: 'Gmail',
  yahoo: 'Yahoo',
  microsoft: 'Microsoft',
};

/**
 * The pages of the providers that require (or advise) a rule, linked by the provider's name: the
 * same sources as the mail check's rules (src/reputation/mail/provider-requirements.ts).
 */
function pagesOf(rule: 'ptr' | 'listing', which: 'required' | 'advised'): Html {
  const pages = rulePages(rule, which);
  return html`${pages.map(
    ({ provider, source }, index) =>
      html`${index > 0 ? ', ' : ''}${link(source.url, providerNames[provider])}`,
  )}`;
}

/** `Gmail and Yahoo`: the providers that require a rule, named in the sentence. */
function providersText(t: Translate): string {
  const names = rulePages('ptr', 'required').map(({ provider }) => providerNames[provider]);
  const last = names.pop() ?? '';
  return names.length === 0 ? last : t('next.providers', { a: names.join(', '), b: last });
}

/**
 * The `ptr` rule's step (docs/score.md#what-receivers-require): no PTR, or one that does not
 * resolve back, with the providers that require it and their pages.
 */
function ptrStep(summary: ShareSummary, t: Translate): Html | undefined {
  const rdns = summary.rdns;
  if (rdns === undefined || (rdns.fcrdns !== 'none' && rdns.fcrdns !== 'fail')) return undefined;
  const ip = html`${addressHtml(rdns.ip ?? summary.target)}`;
  const parts = { ip, pages: pagesOf('ptr', 'required') };
  const providers = providersText(t);
  return rdns.fcrdns === 'none'
    ? sentenceWith(t, 'next.noPtr', { providers }, parts)
    : sentenceWith(t, 'next.unconfirmedPtr', { ptr: rdns.ptr, providers }, parts);
}

/**
 * A policy listing's step: send through the provider's relay, and only if the address is a mail
 * server, tell the list; never "see why it is listed, then ask for removal" as for spam.
 */
function policySentence(step: NextStep, ip: string, t: Translate): Html {
  const url = step.delistUrl ?? step.lookupUrl;
  const page = url ? link(url, t('next.listPage')) : html`${t('next.listPage')}`;
  return sentenceWith(
    t,
    'next.policy',
    { list: step.list },
    { ip: html`${addressHtml(ip)}`, page, pages: pagesOf('listing', 'advised') },
  );
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

function items(listing: ShareListing, summary: ShareSummary, t: Translate): Html[] {
  return (listing.steps ?? []).map((step) => {
    const ip = listing.address?.ip;
    if (step.policy) return policySentence(step, ip ?? summary.rdns?.ip ?? summary.target, t);
    const sentence = stepSentence(step, t);
    return ip ? sentenceWith(t, 'next.address', { ip }, { step: sentence }) : sentence;
  });
}

/**
 * The section, or nothing when no listing carries its pages (nothing listed, or a result stored
 * before results carried them).
 */
export function nextStepsSection(summary: ShareSummary, t: Translate): Html | string {
  // Blocking listings first, then reverse DNS, then what is for information or policy.
  const blocking = summary.listings.filter((listing) => listing.severity !== 'info');
  const rest = summary.listings.filter((listing) => listing.severity === 'info');
  const ptr = ptrStep(summary, t);
  const steps = [
    ...blocking.flatMap((listing) => items(listing, summary, t)),
    ...(ptr ? [ptr] : []),
    ...rest.flatMap((listing) => items(listing, summary, t)),
  ];
  if (steps.length === 0) return '';
  const informational = rest.some((listing) => (listing.steps ?? []).some((step) => !step.policy));
  return html`<h2>${t('next.heading')}</h2>
    <ul class="next-steps">
      ${steps.map((step) => html`<li>${step}</li>`)}
    </ul>
    ${informational ? html`<p class="note">${t('next.informational')}</p>` : ''}`;
}
