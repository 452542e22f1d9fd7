import { makeBadge } from 'badge-maker';
import { shortenMiddle } from './shorten.js';
import { type ShareSummary, type Verdict, addressCount, foundAddresses } from './summary.js';

/** The shields.io styles a badge URL may ask for (badge-maker's `social` is left out: it has no colour). */
export const badgeStyles = ['flat', 'flat-square', 'plastic', 'for-the-badge'] as const;
export type BadgeStyle = (typeof badgeStyles)[number];

/** Beyond this a badge gets wider than a README column; the middle of the name goes first. */
const maxTargetLength = 40;

/** shields.io named colours; `orange` rather than `yellow` for fair, as white text on yellow is hard to read. */
const verdictColours: Record<Verdict, string> = {
  good: 'brightgreen',
  fair: 'orange',
  poor: 'red',
  unknown: 'lightgrey',
};

const toolLabels: Record<ShareSummary['tool'], string> = {
  ip: 'IP',
  domain: 'domain',
  pool: 'pool',
};

function scoreText(score: number | null): string {
  return score === null ? '' : ` ${Math.round(score)}/100`;
}

function message(summary: ShareSummary): string {
  const found = foundAddresses(summary);
  if (found !== undefined) return `${addressCount(found)} found`;
  if (summary.verdict === 'unknown' || summary.checked === 0) return 'unknown';
  if (summary.tool === 'pool') {
    const listed = summary.listed === 0 ? 'none' : String(summary.listed);
    return `${listed} of ${summary.checked} listed`;
  }
  if (summary.listed === 0) return `clean${scoreText(summary.score)}`;
  const score = summary.score === null ? '' : ` ·${scoreText(summary.score)}`;
  return `listed on ${summary.listed}${score}`;
}

/**
 * A shields.io-style SVG badge, e.g. `IP 203.0.113.7 | clean 97/100`. badge-maker escapes the
 * text (the target comes from the user) and adds `<title>` and `aria-label` from label and message.
 */
export function renderBadge(summary: ShareSummary, style: BadgeStyle): string {
  return makeBadge({
    label: `${toolLabels[summary.tool]} ${shortenMiddle(summary.target, maxTargetLength)}`,
    message: message(summary),
    color: verdictColours[summary.verdict],
    style,
  });
}

/** For a share token that is unknown or has expired: the badge still renders, and says so. */
export function renderMissingBadge(style: BadgeStyle): string {
  return makeBadge({ label: 'reputation', message: 'not found', color: 'lightgrey', style });
}
