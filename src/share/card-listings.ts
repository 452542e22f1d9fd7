import { oneLine } from './card-line.js';
import { colours, contentWidth, severityColours, verdictColours } from './card-theme.js';
import { h, svg } from './element.js';
import type { Element } from './element.js';
import { type Translate, toolText } from '../i18n/index.js';
import type { CardText } from './card-layout.js';
import { estimateWidth } from './text-width.js';
import { type ShareListing, type ShareSummary, foundAddresses } from './summary.js';

/**
 * The panel along the bottom of the card: the most important listings, one a row with the
 * severity as colour and as word (colour alone does not reach everyone), and in brief where to
 * ask for removal; or a note that none is.
 */

/** Rows the panel has room for; with more listings the last row counts the rest. */
const rowsShown = 4;
const rowHeight = 38;
const panelPaddingX = 24;
const nameWidth = 380;
const gap = 18;
const dotSize = 14;
const severityFont = { size: 16, letterSpacing: 1.2 };

/** As wide as the language's longest severity word in capitals (`MAJOR`, `ВЫСОКИЙ`), 80 at least. */
function severityWidthOf({ lang, t }: CardText): number {
  const widest = Math.max(
    ...(['major', 'minor', 'info'] as const).map((severity) => {
      const word = t(`card.severity.${severity}`).toLocaleUpperCase(lang);
      return estimateWidth(word, severityFont.size) + severityFont.letterSpacing * word.length;
    }),
  );
  return Math.max(80, Math.ceil(widest));
}

/**
 * The row's name and detail in the card's language: a list with the meaning of its code as the
 * list publishes it, or an address (a domain's sender IP, a pool's address) and the lists it is on.
 */
function rowTexts(listing: ShareListing, t: Translate): { name: string; detail: string } {
  const { address } = listing;
  if (!address) return { name: listing.list, detail: listing.detail };
  return {
    name: address.sender ? t('card.senderIp', { ip: address.ip }) : address.ip,
    detail: t('card.listedOnLists', { lists: address.lists.join(', ') }),
  };
}

function listingRow(listing: ShareListing, text: CardText): Element {
  const colour = severityColours[listing.severity];
  const severityWidth = severityWidthOf(text);
  const detailWidth =
    contentWidth - 2 * panelPaddingX - dotSize - nameWidth - severityWidth - 3 * gap;
  const { name, detail } = rowTexts(listing, text.t);
  return h(
    'div',
    { display: 'flex', alignItems: 'center', height: rowHeight, gap },
    h('div', {
      width: dotSize,
      height: dotSize,
      borderRadius: dotSize / 2,
      backgroundColor: colour,
      flexShrink: 0,
    }),
    oneLine(name, {
      fontSize: 24,
      maxWidth: nameWidth,
      style: { width: nameWidth, fontWeight: 600, color: colours.ink },
    }),
    oneLine(detail, {
      fontSize: 22,
      maxWidth: detailWidth,
      cut: 'end',
      style: { width: detailWidth, color: colours.muted },
    }),
    h(
      'div',
      {
        width: severityWidth,
        textAlign: 'right',
        fontSize: severityFont.size,
        fontWeight: 700,
        letterSpacing: severityFont.letterSpacing,
        textTransform: 'uppercase',
        color: colour,
      },
      text.t(`card.severity.${listing.severity}`),
    ),
  );
}

function moreRow(text: string): Element {
  return h(
    'div',
    {
      display: 'flex',
      alignItems: 'center',
      height: rowHeight,
      fontSize: 22,
      color: colours.muted,
      paddingLeft: dotSize + gap,
    },
    text,
  );
}

function checkIcon(): Element {
  return svg(
    'svg',
    { width: 36, height: 36, viewBox: '0 0 36 36' },
    svg('circle', { cx: 18, cy: 18, r: 18, fill: verdictColours.good }),
    svg('path', {
      d: 'M10.5 18.5 L15.5 23.5 L25.5 13',
      fill: 'none',
      stroke: colours.paper,
      strokeWidth: 3.5,
      strokeLinecap: 'round',
      strokeLinejoin: 'round',
    }),
  );
}

function noteText(text: string): Element {
  return oneLine(text, {
    fontSize: 24,
    maxWidth: contentWidth - 2 * panelPaddingX,
    cut: 'end',
    style: { color: colours.muted },
  });
}

function note(summary: ShareSummary, t: Translate): Element {
  if (foundAddresses(summary) !== undefined) return noteText(t('card.notCheckedYet'));
  // The mail tool's note, for a mail check and a mail watch alike: both count requirements.
  if (summary.counts === 'requirements') return noteText(t('card.clean.mail'));
  if (summary.checked === 0) return noteText(t('card.noAnswers'));
  const clean = toolText(t, 'card.clean', summary.tool);
  const iconGap = 16;
  return h(
    'div',
    { display: 'flex', alignItems: 'center', gap: iconGap },
    checkIcon(),
    oneLine(clean, {
      fontSize: 26,
      maxWidth: contentWidth - 2 * panelPaddingX - 36 - iconGap,
      cut: 'end',
      style: { fontWeight: 600, color: colours.ink },
    }),
  );
}

function panel(children: Element[]): Element {
  return h(
    'div',
    {
      display: 'flex',
      flexDirection: 'column',
      padding: `14px ${panelPaddingX}px`,
      borderRadius: 18,
      backgroundColor: colours.panel,
    },
    ...children,
  );
}

/**
 * Where the listed party asks for removal, in brief: the delisting pages' hosts (or the lookup
 * pages' where a list has no delisting page), `Removal: check.spamhaus.org · www.spamcop.net`;
 * the share page links each one.
 */
export function delistHint(summary: ShareSummary, t: Translate): string | undefined {
  const hosts = new Set<string>();
  for (const step of summary.listings.flatMap((listing) => listing.steps ?? [])) {
    const url = step.delistUrl ?? step.lookupUrl;
    if (url && URL.canParse(url)) hosts.add(new URL(url).host);
  }
  return hosts.size > 0 ? t('card.delistHint', { hosts: [...hosts].join(' · ') }) : undefined;
}

function hintRow(hint: string): Element {
  return h(
    'div',
    { display: 'flex', alignItems: 'center', height: rowHeight, paddingLeft: dotSize + gap },
    oneLine(hint, {
      fontSize: 20,
      maxWidth: contentWidth - 2 * panelPaddingX - dotSize - gap,
      cut: 'end',
      style: { color: colours.muted },
    }),
  );
}

/** Null when the result counts listings but carries none to show: the headline says it all. */
export function listingsPanel(summary: ShareSummary, text: CardText): Element | null {
  const { listings } = summary;
  if (listings.length === 0) return summary.listed === 0 ? panel([note(summary, text.t)]) : null;
  const hint = delistHint(summary, text.t);
  const room = rowsShown - (hint ? 1 : 0);
  const shown = listings.length > room ? listings.slice(0, room - 1) : listings;
  const rows = shown.map((listing) => listingRow(listing, text));
  const hidden = listings.length - shown.length;
  if (hidden > 0) {
    const more = summary.counts === 'addresses' ? 'card.moreAddresses' : 'card.moreLists';
    rows.push(moreRow(text.t(more, { n: hidden })));
  }
  if (hint) rows.push(hintRow(hint));
  return panel(rows);
}
