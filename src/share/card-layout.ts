import { oneLine } from './card-line.js';
import { listingsPanel } from './card-listings.js';
import { ringSize, scoreRing } from './card-ring.js';
import { dayStripRow } from './card-strip.js';
import { targetBlock } from './card-target.js';
import { notCoveredTexts, vouchingTexts } from './count-texts.js';
import {
  cardHeight,
  cardWidth,
  colours,
  contentWidth,
  paddingX,
  verdictColours,
} from './card-theme.js';
import { h, svg } from './element.js';
import type { Element } from './element.js';
import { estimateWidth } from './text-width.js';
import {
  type ShareSummary,
  type Verdict,
  foundAddresses,
  providerVerdicts,
  senderAddresses,
} from './summary.js';
import { type Lang, type Translate, toolText, translator } from '../i18n/index.js';
import { askableCount, disabledByTest } from '../reputation/index.js';

/**
 * The share card as an element tree for satori: a header (service, date), the target with its
 * verdict beside the score ring, and the listings panel along the bottom. Every text that comes
 * from a result or a catalog (English or Russian, src/i18n) is fitted before layout, by a width
 * estimate that errs wide, so nothing overflows in either language.
 */

/** What the card's parts need besides the summary: its language and that language's texts. */
export interface CardText {
  lang: Lang;
  t: Translate;
}

const columnGap = 48;
/** The width of the target, headline and detail lines, left of the score ring. */
export const textColumnWidth = contentWidth - ringSize - columnGap;

type Fcrdns = NonNullable<ShareSummary['rdns']>['fcrdns'];
const fcrdnsColours: Record<Fcrdns, string> = {
  pass: verdictColours.good,
  fail: verdictColours.poor,
  none: verdictColours.fair,
  error: verdictColours.unknown,
};

/** Made once per language: building an Intl.DateTimeFormat costs more than formatting with it. */
const checkedAtFormats = new Map<Lang, Intl.DateTimeFormat>();

function formatCheckedAt(checkedAt: string, lang: Lang): string {
  const date = new Date(checkedAt);
  if (Number.isNaN(date.getTime())) return checkedAt;
  let format = checkedAtFormats.get(lang);
  if (format === undefined) {
    // en-GB: "14 Jun 2025, 09:41", a day-month order every English reader parses.
    format = new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : lang, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'UTC',
    });
    checkedAtFormats.set(lang, format);
  }
  return `${format.format(date)} UTC`;
}

/** Whether every list of the check answered; without counts (older summaries), as if so. */
function allAnswered(summary: ShareSummary): boolean {
  return !summary.coverage || summary.coverage.answered === summary.coverage.total;
}

function capitalise(text: string, lang: Lang): string {
  return text.charAt(0).toLocaleUpperCase(lang) + text.slice(1);
}

function headline(summary: ShareSummary, { lang, t }: CardText): string {
  const { counts, listed, checked } = summary;
  const found = foundAddresses(summary);
  if (found !== undefined) return capitalise(t('count.found', { n: found }), lang);
  const providers = providerVerdicts(summary);
  if (providers) {
    const verdicts = Object.values(providers);
    const failed = verdicts.filter((verdict) => verdict === 'fail').length;
    if (failed > 0) return t('mail.card.fails', { failed, n: verdicts.length });
    return verdicts.includes('warn') ? t('mail.card.warns') : t('mail.card.meets');
  }
  if (checked === 0)
    return counts === 'addresses' ? t('card.noAddressChecked') : t('card.noListAnswered');
  if (counts === 'addresses') {
    return listed === 0
      ? t('card.poolNone', { n: checked })
      : t('card.poolListed', { listed, n: checked });
  }
  const lists = allAnswered(summary)
    ? t('count.lists', { n: checked })
    : t('count.listsThatAnswered', { n: checked });
  if (listed > 0) return t('card.listedOn', { listed, lists });
  // An informational entry (Spamhaus PBL) is not a blocklisting: the headline says so, the panel
  // below shows the entry, and neither contradicts a good verdict.
  if ((summary.coverage?.informational ?? 0) > 0) return t('card.notBlocklisted', { lists });
  return t('card.notListed', { lists });
}

/**
 * How many lists the verdict rests on: `All 18 lists answered`, `16 of 18 lists answered · 1 did
 * not answer · 1 on hold`, plus informational entries and the allowlists that vouch for the
 * target. For a pool, those of its least-answered address.
 */
export function coverageLine(
  summary: ShareSummary,
  t: Translate = translator('en'),
): string | undefined {
  const providers = providerVerdicts(summary);
  // The card's headline says these are the rules that can be seen; the line says each verdict in
  // a word or two, so three of them fit the card in both languages.
  if (providers) {
    return (Object.entries(providers) as [keyof typeof providers, 'pass' | 'warn' | 'fail'][])
      .map(([provider, verdict]) =>
        t('mail.providerVerdict', {
          provider: t(`mail.provider.${provider}`),
          verdict: t(`mail.card.verdict.${verdict}`),
        }),
      )
      .join(' · ');
  }
  const coverage = summary.coverage;
  if (!coverage || foundAddresses(summary) !== undefined) return undefined;
  // Lists waiting for a key are the operator's choice: the card counts the lists it may ask.
  const total = askableCount(coverage);
  const disabled = disabledByTest(coverage);
  const answered =
    coverage.answered === total
      ? t('card.allAnswered', { n: total })
      : t('card.someAnswered', { answered: coverage.answered, n: total });
  const parts = [
    answered,
    ...(coverage.not_answered > 0 ? [t('count.unanswered', { n: coverage.not_answered })] : []),
    ...(coverage.on_hold > 0 ? [t('count.onHold', { n: coverage.on_hold })] : []),
    ...(disabled > 0 ? [t('count.disabled', { n: disabled })] : []),
    ...notCoveredTexts(coverage, t),
    ...(coverage.informational > 0 ? [t('card.informational', { n: coverage.informational })] : []),
    ...vouchingTexts(coverage.allowlists, t, true),
  ];
  return parts.join(' · ');
}

function brand(t: Translate): Element {
  const shield = svg(
    'svg',
    { width: 36, height: 36, viewBox: '0 0 36 36' },
    svg('rect', { x: 0, y: 0, width: 36, height: 36, rx: 9, fill: colours.ink }),
    svg('path', {
      d: 'M18 7 L27 10.5 V17 C27 22.5 23.2 26.8 18 29 C12.8 26.8 9 22.5 9 17 V10.5 Z',
      fill: colours.paper,
    }),
  );
  return h(
    'div',
    { display: 'flex', alignItems: 'center', gap: 14 },
    shield,
    h('div', { fontSize: 26, fontWeight: 700, color: colours.ink }, t('site.name')),
  );
}

function header(checkedAt: string, { lang, t }: CardText): Element {
  return h(
    'div',
    { display: 'flex', alignItems: 'center', justifyContent: 'space-between', height: 40 },
    brand(t),
    h(
      'div',
      { fontSize: 22, color: colours.muted },
      t('card.checkedAt', { date: formatCheckedAt(checkedAt, lang) }),
    ),
  );
}

function verdictPill(verdict: Verdict, t: Translate): Element {
  return h(
    'div',
    {
      display: 'flex',
      alignItems: 'center',
      height: 38,
      padding: '0 16px',
      borderRadius: 19,
      flexShrink: 0,
      backgroundColor: verdictColours[verdict],
      color: colours.paper,
      fontSize: 20,
      fontWeight: 700,
      letterSpacing: 1.5,
      textTransform: 'uppercase',
    },
    t(`verdict.${verdict}`),
  );
}

/** The ip tool's reverse DNS: the PTR name and whether it resolves back to the address. */
function reverseDnsLine(rdns: NonNullable<ShareSummary['rdns']>, t: Translate): Element {
  const fontSize = 24;
  // "rDNS", the postmaster's word, leaves the PTR name room on the line.
  const label = t('card.rdns');
  const stateText = `· ${t(`card.fcrdns.${rdns.fcrdns}`)}`;
  const gap = 10;
  const ptrWidth =
    textColumnWidth - estimateWidth(label, fontSize) - estimateWidth(stateText, fontSize) - 2 * gap;
  return h(
    'div',
    { display: 'flex', alignItems: 'center', gap, fontSize, color: colours.muted },
    h('div', { flexShrink: 0 }, label),
    rdns.ptr
      ? oneLine(rdns.ptr, {
          fontSize,
          maxWidth: ptrWidth,
          style: { fontWeight: 600, color: colours.ink },
        })
      : null,
    h('div', { flexShrink: 0, fontWeight: 600, color: fcrdnsColours[rdns.fcrdns] }, stateText),
  );
}

/** What else the tool found, under the headline: reverse DNS (an address) or the sender IPs (a domain). */
function detailLine(summary: ShareSummary, t: Translate): Element | null {
  if (summary.rdns) return reverseDnsLine(summary.rdns, t);
  const senders = senderAddresses(summary);
  if (senders) {
    const { total, listed } = senders;
    return oneLine(t('card.senderIps', { listed, n: total }), {
      fontSize: 24,
      maxWidth: textColumnWidth,
      cut: 'end',
      style: { color: colours.muted },
    });
  }
  return null;
}

const pillGap = 16;

/** The pill's width: its word in capitals at 20 px with 1.5 px letter spacing, 16 px padding. */
function pillWidth(verdict: Verdict, { lang, t }: CardText): number {
  const word = t(`verdict.${verdict}`).toLocaleUpperCase(lang);
  return estimateWidth(word, 20) + 1.5 * word.length + 32;
}

/** The headline at 28 px, smaller (down to 22) rather than cut when it is long. */
function headlineElement(summary: ShareSummary, text: CardText): Element {
  const words = headline(summary, text);
  const room = textColumnWidth - pillWidth(summary.verdict, text) - pillGap;
  let fontSize = 28;
  while (fontSize > 22 && estimateWidth(words, fontSize) > room) fontSize--;
  return h('div', { fontSize, fontWeight: 600, color: colours.ink, flexShrink: 1 }, words);
}

function coverageElement(summary: ShareSummary, t: Translate): Element | null {
  const text = coverageLine(summary, t);
  if (text === undefined) return null;
  // Smaller rather than cut, down to 18 px; past that the end goes.
  let fontSize = 22;
  while (fontSize > 18 && estimateWidth(text, fontSize) > textColumnWidth) fontSize--;
  return oneLine(text, {
    fontSize,
    maxWidth: textColumnWidth,
    cut: 'end',
    style: { color: colours.muted },
  });
}

function textColumn(summary: ShareSummary, text: CardText): Element {
  return h(
    'div',
    { display: 'flex', flexDirection: 'column', width: textColumnWidth, gap: 10 },
    h(
      'div',
      {
        fontSize: 20,
        fontWeight: 600,
        letterSpacing: 2,
        textTransform: 'uppercase',
        color: colours.faint,
      },
      toolText(text.t, 'card.kind', summary.tool),
    ),
    targetBlock(summary.target, textColumnWidth),
    h(
      'div',
      { display: 'flex', alignItems: 'center', gap: pillGap, marginTop: 6 },
      verdictPill(summary.verdict, text.t),
      headlineElement(summary, text),
    ),
    coverageElement(summary, text.t),
    detailLine(summary, text.t),
    summary.days ? dayStripRow(summary.days, textColumnWidth, text.t) : null,
  );
}

export function cardLayout(summary: ShareSummary, fontFamily: string, lang: Lang = 'en'): Element {
  const text: CardText = { lang, t: translator(lang) };
  return h(
    'div',
    {
      display: 'flex',
      flexDirection: 'column',
      width: cardWidth,
      height: cardHeight,
      backgroundColor: colours.paper,
      fontFamily,
    },
    // The verdict's colour along the top edge, readable even in a thumbnail.
    h('div', { height: 12, flexShrink: 0, backgroundColor: verdictColours[summary.verdict] }),
    h(
      'div',
      {
        display: 'flex',
        flexDirection: 'column',
        flexGrow: 1,
        padding: `30px ${paddingX}px 40px`,
      },
      header(summary.checkedAt, text),
      h(
        'div',
        { display: 'flex', alignItems: 'center', flexGrow: 1, gap: columnGap, marginBottom: 24 },
        textColumn(summary, text),
        scoreRing(summary, text.t),
      ),
      listingsPanel(summary, text),
    ),
  );
}
