import { notCoveredPart } from '../reputation/coverage.js';
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
/** The width of the target, headline and detail lines, left of the score ring. */
export const textColumnWidth = contentWidth - ringSize - columnGap;

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

/** Whether every list of the check answered; without counts (older summaries), as if so. */
function allAnswered(summary: ShareSummary): boolean {
  return !summary.coverage || summary.coverage.answered === summary.coverage.total;
}

function headline(summary: ShareSummary): string {
  const { tool, listed, checked } = summary;
  const found = foundAddresses(summary);
  if (found !== undefined) return `${addressCount(found)} found`;
  if (checked === 0) return tool === 'pool' ? 'No address checked' : 'No list answered';
  if (tool === 'pool') {
    return `${listed === 0 ? 'None' : listed} of ${counted(checked, 'address', 'addresses')} listed`;
  }
  const lists = counted(checked, 'list', 'lists');
  const asked = allAnswered(summary) ? lists : `${lists} that answered`;
  if (listed > 0) return `Listed on ${listed} of ${asked}`;
  // An informational entry (Spamhaus PBL) is not a blocklisting: the headline says so, the panel
  // below shows the entry, and neither contradicts a good verdict.
  if ((summary.coverage?.informational ?? 0) > 0) return `Not blocklisted on ${asked}`;
  return `Not listed on any of ${asked}`;
}

/**
 * How many lists the verdict rests on: `All 18 lists answered`, `16 of 18 lists answered · 1 did
 * not answer · 1 on hold`, plus informational entries. For a pool, those of its least-answered
 * address.
 */
export function coverageLine(summary: ShareSummary): string | undefined {
  const coverage = summary.coverage;
  if (!coverage || foundAddresses(summary) !== undefined) return undefined;
  const answered =
    coverage.answered === coverage.total
      ? `All ${counted(coverage.total, 'list', 'lists')} answered`
      : `${coverage.answered} of ${counted(coverage.total, 'list', 'lists')} answered`;
  const parts = [
    answered,
    ...(coverage.not_answered > 0 ? [`${coverage.not_answered} did not answer`] : []),
    ...(coverage.on_hold > 0 ? [`${coverage.on_hold} on hold`] : []),
    ...(coverage.disabled > 0 ? [`${coverage.disabled} disabled`] : []),
    ...notCoveredPart(coverage),
    ...(coverage.informational > 0
      ? [counted(coverage.informational, 'informational entry', 'informational entries')]
      : []),
  ];
  return parts.join(' · ');
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

const pillGap = 16;

/** The pill's width: its word in capitals at 20 px with 1.5 px letter spacing, 16 px padding. */
function pillWidth(verdict: Verdict): number {
  const word = verdictWords[verdict].toUpperCase();
  return estimateWidth(word, 20) + 1.5 * word.length + 32;
}

/** The headline at 28 px, smaller (down to 22) rather than cut when it is long. */
function headlineElement(summary: ShareSummary): Element {
  const text = headline(summary);
  const room = textColumnWidth - pillWidth(summary.verdict) - pillGap;
  let fontSize = 28;
  while (fontSize > 22 && estimateWidth(text, fontSize) > room) fontSize--;
  return h('div', { fontSize, fontWeight: 600, color: colours.ink, flexShrink: 1 }, text);
}

function coverageElement(summary: ShareSummary): Element | null {
  const text = coverageLine(summary);
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
      { display: 'flex', alignItems: 'center', gap: pillGap, marginTop: 6 },
      verdictPill(summary.verdict),
      headlineElement(summary),
    ),
    coverageElement(summary),
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
