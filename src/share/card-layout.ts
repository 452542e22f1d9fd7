import { oneLine } from './card-line.js';
import { listingsPanel } from './card-listings.js';
import { ringSize, scoreRing } from './card-ring.js';
import { targetBlock } from './card-target.js';
import {
  cardHeight,
  cardWidth,
  colours,
  contentWidth,
  paddingX,
  targetKinds,
  verdictColours,
  verdictWords,
} from './card-theme.js';
import { h, svg } from './element.js';
import type { Element } from './element.js';
import { estimateWidth } from './text-width.js';
import { type ShareSummary, type Verdict, addressCount, foundAddresses } from './summary.js';

/**
 * The share card as an element tree for satori: a header (service, date), the target with its
 * verdict beside the score ring, and the listings panel along the bottom. Every text that comes
 * from a result is fitted before layout, by a width estimate that errs wide, so nothing overflows.
 */

const columnGap = 48;
const textColumnWidth = contentWidth - ringSize - columnGap;

type Fcrdns = NonNullable<ShareSummary['rdns']>['fcrdns'];
const fcrdnsStates: Record<Fcrdns, { text: string; colour: string }> = {
  pass: { text: 'forward-confirmed', colour: verdictColours.good },
  fail: { text: 'not forward-confirmed', colour: verdictColours.poor },
  none: { text: 'no PTR record', colour: verdictColours.fair },
  error: { text: 'lookup failed', colour: verdictColours.unknown },
};

/** Made once: building an Intl.DateTimeFormat costs more than formatting with it. */
const checkedAtFormat = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

function formatCheckedAt(checkedAt: string): string {
  const date = new Date(checkedAt);
  if (Number.isNaN(date.getTime())) return checkedAt;
  return `${checkedAtFormat.format(date)} UTC`;
}

function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function headline(summary: ShareSummary): string {
  const { tool, listed, checked } = summary;
  const found = foundAddresses(summary);
  if (found !== undefined) return `${addressCount(found)} found`;
  if (checked === 0) return tool === 'pool' ? 'No address checked' : 'No list answered';
  if (tool === 'pool') {
    return `${listed === 0 ? 'None' : listed} of ${counted(checked, 'address', 'addresses')} listed`;
  }
  if (listed === 0) return `Not listed on any of ${counted(checked, 'list', 'lists')}`;
  return `Listed on ${listed} of ${counted(checked, 'list', 'lists')}`;
}

function brand(): Element {
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
    h('div', { fontSize: 26, fontWeight: 700, color: colours.ink }, 'Reputation Tools'),
  );
}

function header(checkedAt: string): Element {
  return h(
    'div',
    { display: 'flex', alignItems: 'center', justifyContent: 'space-between', height: 40 },
    brand(),
    h('div', { fontSize: 22, color: colours.muted }, `Checked ${formatCheckedAt(checkedAt)}`),
  );
}

function verdictPill(verdict: Verdict): Element {
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
    verdictWords[verdict],
  );
}

/** The ip tool's reverse DNS: the PTR name and whether it resolves back to the address. */
function reverseDnsLine(rdns: NonNullable<ShareSummary['rdns']>): Element {
  const fontSize = 24;
  // "rDNS", the postmaster's word, leaves the PTR name room on the line.
  const label = 'rDNS';
  const state = fcrdnsStates[rdns.fcrdns];
  const stateText = `· ${state.text}`;
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
    h('div', { flexShrink: 0, fontWeight: 600, color: state.colour }, stateText),
  );
}

/** What else the tool found, under the headline: reverse DNS (ip) or the sender IPs (domain). */
function detailLine(summary: ShareSummary): Element | null {
  if (summary.tool === 'ip' && summary.rdns) return reverseDnsLine(summary.rdns);
  if (summary.tool === 'domain' && summary.addresses) {
    const { total, listed } = summary.addresses;
    return h(
      'div',
      { fontSize: 24, color: colours.muted },
      `Sender IPs: ${listed} of ${counted(total, 'address', 'addresses')} listed`,
    );
  }
  return null;
}

function textColumn(summary: ShareSummary): Element {
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
      targetKinds[summary.tool],
    ),
    targetBlock(summary.target, textColumnWidth),
    h(
      'div',
      { display: 'flex', alignItems: 'center', gap: 16, marginTop: 6 },
      verdictPill(summary.verdict),
      h('div', { fontSize: 28, fontWeight: 600, color: colours.ink }, headline(summary)),
    ),
    detailLine(summary),
  );
}

export function cardLayout(summary: ShareSummary, fontFamily: string): Element {
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
      header(summary.checkedAt),
      h(
        'div',
        { display: 'flex', alignItems: 'center', flexGrow: 1, gap: columnGap, marginBottom: 24 },
        textColumn(summary),
        scoreRing(summary),
      ),
      listingsPanel(summary),
    ),
  );
}
