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

/** Lists that did not contribute, short: `2 no answer`, `1 on hold`, `1 disabled`. */
function missingParts(summary: ShareSummary): string[] {
  const coverage = summary.coverage;
  if (!coverage) return [];
  return [
    ...(coverage.not_answered > 0 ? [`${coverage.not_answered} no answer`] : []),
    ...(coverage.on_hold > 0 ? [`${coverage.on_hold} on hold`] : []),
    ...(coverage.disabled > 0 ? [`${coverage.disabled} disabled`] : []),
  ];
}

const lists = (count: number) => `${count} list${count === 1 ? '' : 's'}`;

/**
 * What the lists said, e.g. `listed on 2 of 16 · 2 no answer · 0/100`, `clean on 18 lists ·
 * 1 info · 95/100`, `2 of 16 sender IPs listed · domain clean on 5 lists · 75/100`. Never a
 * plain "clean" while a sender address is listed or a list did not answer.
 */
function message(summary: ShareSummary): string {
  const found = foundAddresses(summary);
  if (found !== undefined) return `${addressCount(found)} found`;
  const missing = missingParts(summary);
  if (summary.verdict === 'unknown' || summary.checked === 0)
    return ['unknown', ...missing].join(' · ');
  if (summary.tool === 'pool') {
    const listed = summary.listed === 0 ? 'none' : String(summary.listed);
    return [`${listed} of ${summary.checked} listed`, ...missing].join(' · ');
  }
  const informational = summary.coverage?.informational ?? 0;
  const senders = summary.tool === 'domain' ? summary.addresses : undefined;
  const sendersListed = senders && senders.listed > 0;
  const lead =
    summary.listed > 0
      ? [`listed on ${summary.listed} of ${summary.checked}`]
      : sendersListed
        ? [
            `${senders.listed} of ${senders.total} sender IPs listed`,
            `domain clean on ${lists(summary.checked)}`,
          ]
        : [`clean on ${lists(summary.checked)}`];
  const senderNote =
    summary.listed > 0 && sendersListed ? [`${senders.listed} sender IPs listed`] : [];
  const score = summary.score === null ? [] : [`${Math.round(summary.score)}/100`];
  return [
    ...lead,
    ...(informational > 0 ? [`${informational} info`] : []),
    ...senderNote,
    ...missing,
    ...score,
  ].join(' · ');
}

/**
 * A shields.io-style SVG badge, e.g. `IP 203.0.113.7 | clean on 18 lists · 97/100`. badge-maker escapes the
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
