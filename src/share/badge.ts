import { makeBadge } from 'badge-maker';
import { disabledByTest } from '../reputation/index.js';
import { type Lang, type Translate, toolText, translator } from '../i18n/index.js';
import { vouchingTexts } from './count-texts.js';
import { shortenMiddle } from './shorten.js';
import {
  type ProviderVerdicts,
  type ShareSummary,
  type Verdict,
  foundAddresses,
  providerVerdicts,
  senderAddresses,
} from './summary.js';

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

/**
 * Lists that did not contribute, short: `2 no answer`, `1 on hold`, `1 disabled`; lists waiting
 * for a key are the operator's choice, left to the share page.
 */
function missingParts(summary: ShareSummary, t: Translate): string[] {
  const coverage = summary.coverage;
  if (!coverage) return [];
  return [
    ...(coverage.not_answered > 0 ? [t('badge.noAnswer', { n: coverage.not_answered })] : []),
    ...(coverage.on_hold > 0 ? [t('count.onHold', { n: coverage.on_hold })] : []),
    ...(disabledByTest(coverage) > 0 ? [t('count.disabled', { n: disabledByTest(coverage) })] : []),
  ];
}

/**
 * What the lists said, e.g. `listed on 2 of 16 · 2 no answer · 0/100`, `clean on 18 lists ·
 * 1 info · 95/100`, `2 of 16 sender IPs listed · domain clean on 5 lists · 75/100`, `clean on 31
 * lists · allowlisted on DNSWL.org (high trust) · 100/100`. Never a plain "clean" while a sender
 * address is listed or a list did not answer.
 */
function message(summary: ShareSummary, t: Translate): string {
  const found = foundAddresses(summary);
  if (found !== undefined) return t('count.found', { n: found });
  const providers = providerVerdicts(summary);
  if (providers) return providersMessage(providers, summary.score, t);
  const missing = missingParts(summary, t);
  if (summary.verdict === 'unknown' || summary.checked === 0)
    return [t('badge.unknown'), ...missing].join(' · ');
  if (summary.counts === 'addresses') {
    const listed =
      summary.listed === 0
        ? t('badge.poolNone', { n: summary.checked })
        : t('badge.poolListed', { listed: summary.listed, n: summary.checked });
    return [listed, ...missing].join(' · ');
  }
  const informational = summary.coverage?.informational ?? 0;
  const senders = senderAddresses(summary);
  const sendersListed = senders && senders.listed > 0;
  const lead =
    summary.listed > 0
      ? [t('badge.listedOn', { listed: summary.listed, n: summary.checked })]
      : sendersListed
        ? [
            t('count.sendersListed', { listed: senders.listed, n: senders.total }),
            t('badge.domainClean', { n: summary.checked }),
          ]
        : [t('badge.clean', { n: summary.checked })];
  const senderNote =
    summary.listed > 0 && sendersListed ? [t('badge.sendersListed', { n: senders.listed })] : [];
  const score =
    summary.score === null ? [] : [t('score.value', { score: Math.round(summary.score) })];
  return [
    ...lead,
    ...(informational > 0 ? [t('badge.info', { n: informational })] : []),
    ...vouchingTexts(summary.coverage?.allowlists, t, true),
    ...senderNote,
    ...missing,
    ...score,
  ].join(' · ');
}

/** A mail check's badge: `Gmail ok · Yahoo warn · Microsoft fail · 72/100`. */
function providersMessage(providers: ProviderVerdicts, score: number | null, t: Translate): string {
  const parts = (Object.entries(providers) as [keyof ProviderVerdicts, string][]).map(
    ([provider, verdict]) =>
      t(`mail.badge.${verdict as ProviderVerdicts['gmail']}`, {
        provider: t(`mail.provider.${provider}`),
      }),
  );
  return [
    ...parts,
    ...(score === null ? [] : [t('score.value', { score: Math.round(score) })]),
  ].join(' · ');
}

/**
 * A shields.io-style SVG badge in `lang`, e.g. `IP 203.0.113.7 | clean on 18 lists · 97/100`,
 * `IP 203.0.113.7 | чисто в 18 списках · 97/100`. badge-maker escapes the text (the target comes
 * from the user) and adds `<title>` and `aria-label` from label and message.
 */
export function renderBadge(summary: ShareSummary, style: BadgeStyle, lang: Lang = 'en'): string {
  const t = translator(lang);
  return makeBadge({
    label: `${toolText(t, 'badge.tool', summary.tool)} ${shortenMiddle(summary.target, maxTargetLength)}`,
    message: message(summary, t),
    color: verdictColours[summary.verdict],
    style,
  });
}

/** For a share token that is unknown or has expired: the badge still renders, and says so. */
export function renderMissingBadge(style: BadgeStyle, lang: Lang = 'en'): string {
  const t = translator(lang);
  return makeBadge({
    label: t('badge.missing.label'),
    message: t('badge.missing.message'),
    color: 'lightgrey',
    style,
  });
}

/**
 * For a live view that has ended (a watch past its `expires_at`): the badge still renders and
 * says it ended, rather than "not found", so an embed tells its readers the truth.
 */
export function renderEndedBadge(
  tool: string,
  target: string,
  style: BadgeStyle,
  lang: Lang = 'en',
): string {
  const t = translator(lang);
  return makeBadge({
    label: `${toolText(t, 'badge.tool', tool)} ${shortenMiddle(target, maxTargetLength)}`,
    message: t('badge.ended.message'),
    color: 'lightgrey',
    style,
  });
}
