import { oneLine } from './card-line.js';
import { colours, contentWidth, severityColours, verdictColours } from './card-theme.js';
import { h, svg } from './element.js';
import type { Element } from './element.js';
import { type ShareListing, type ShareSummary, foundAddresses } from './summary.js';

/**
 * The panel along the bottom of the card: the most important listings, one a row with the
 * severity as colour and as word (colour alone does not reach everyone), or a note that none is.
 */

/** Rows the panel has room for; with more listings the last row counts the rest. */
const rowsShown = 4;
const rowHeight = 38;
const panelPaddingX = 24;
const nameWidth = 380;
const severityWidth = 80;
const gap = 18;
const dotSize = 14;
const detailWidth =
  contentWidth - 2 * panelPaddingX - dotSize - nameWidth - severityWidth - 3 * gap;

function listingRow(listing: ShareListing): Element {
  const colour = severityColours[listing.severity];
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
    oneLine(listing.list, {
      fontSize: 24,
      maxWidth: nameWidth,
      style: { width: nameWidth, fontWeight: 600, color: colours.ink },
    }),
    oneLine(listing.detail, {
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
        fontSize: 16,
        fontWeight: 700,
        letterSpacing: 1.2,
        textTransform: 'uppercase',
        color: colour,
      },
      listing.severity,
    ),
  );
}

function moreRow(count: number, noun: string): Element {
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
    `+ ${count} more ${noun}`,
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

function note(summary: ShareSummary): Element {
  if (foundAddresses(summary) !== undefined) {
    return h(
      'div',
      { fontSize: 24, color: colours.muted },
      'Not checked yet: pick addresses for a blocklist check.',
    );
  }
  if (summary.checked === 0) {
    return h(
      'div',
      { fontSize: 24, color: colours.muted },
      'No answers: the check could not be completed.',
    );
  }
  const text =
    summary.tool === 'pool'
      ? 'No address in the pool is on any list that answered.'
      : `No list that answered lists this ${summary.tool === 'ip' ? 'address' : 'domain'}.`;
  return h(
    'div',
    { display: 'flex', alignItems: 'center', gap: 16 },
    checkIcon(),
    h('div', { fontSize: 26, fontWeight: 600, color: colours.ink }, text),
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

/** Null when the result counts listings but carries none to show: the headline says it all. */
export function listingsPanel(summary: ShareSummary): Element | null {
  const { listings } = summary;
  if (listings.length === 0) return summary.listed === 0 ? panel([note(summary)]) : null;
  const shown = listings.length > rowsShown ? listings.slice(0, rowsShown - 1) : listings;
  const rows = shown.map(listingRow);
  const hidden = listings.length - shown.length;
  if (hidden > 0) rows.push(moreRow(hidden, summary.tool === 'pool' ? 'addresses' : 'lists'));
  return panel(rows);
}
