import type { Translate } from '../i18n/index.js';
import {
  askableCount,
  disabledByTest,
  type ListCoverage,
  type Vouching,
} from '../reputation/index.js';
import {
  type ProviderVerdicts,
  type ShareSummary,
  foundAddresses,
  providerVerdicts,
  senderAddresses,
} from './summary.js';

/**
 * How many lists a verdict rests on, in the reader's language, for the share page, the check
 * page, the card and the badge. The English catalog writes exactly what `describeCoverage`
 * (src/reputation/lists/coverage.ts) writes into the JSON `summary` field: every list counted, a list
 * that did not answer never read as clean, informational entries apart (docs/verdicts.md).
 */

/**
 * The lists that cannot answer for an IPv6 address, `16 do not cover IPv6` (docs/ipv6.md); none
 * for an IPv4 address or a coverage stored before IPv6.
 */
export function notCoveredTexts(
  coverage: Pick<ListCoverage, 'not_covered'>,
  t: Translate,
): string[] {
  const count = coverage.not_covered ?? 0;
  return count > 0 ? [t('count.notCovered', { n: count })] : [];
}

/**
 * The lists that did not contribute: `2 did not answer`, `1 on hold`, `1 disabled`, and for an
 * IPv6 address `16 do not cover IPv6`; the lists waiting for a key (never asked) are counted as
 * `2 need a key`, never as lists that did not answer.
 */
export function missingTexts(coverage: ListCoverage, t: Translate): string[] {
  return absentTexts(coverage, t, notCoveredTexts(coverage, t));
}

/**
 * The lists that could not answer for one address of a domain or pool check (its `unanswered`):
 * as `missingTexts` says them, without the lists that do not cover IPv6, which an address's row
 * leaves out as its `unanswered` does.
 */
export function unansweredTexts(
  coverage: Pick<ListCoverage, 'not_answered' | 'on_hold' | 'disabled' | 'needs_key'>,
  t: Translate,
): string[] {
  return absentTexts(coverage, t, []);
}

function absentTexts(
  coverage: Pick<ListCoverage, 'not_answered' | 'on_hold' | 'disabled' | 'needs_key'>,
  t: Translate,
  notCovered: string[],
): string[] {
  const disabled = disabledByTest(coverage);
  const needsKey = coverage.needs_key ?? 0;
  return [
    ...(coverage.not_answered > 0 ? [t('count.unanswered', { n: coverage.not_answered })] : []),
    ...(coverage.on_hold > 0 ? [t('count.onHold', { n: coverage.on_hold })] : []),
    ...(disabled > 0 ? [t('count.disabled', { n: disabled })] : []),
    ...notCovered,
    ...(needsKey > 0 ? [t('count.needsKey', { n: needsKey })] : []),
  ];
}

/**
 * The allowlists that vouch for the target, as good news: `allowlisted on DNSWL.org (high
 * trust)`, `... and Mailspike Whitelist (medium trust)`, `... and 2 more` (the most trusting
 * named first, as `describeVouching` writes it into the JSON `summary`).
 */
export function vouchingTexts(
  allowlists: readonly Vouching[] | undefined,
  t: Translate,
  /** Only the most trusting named, the others counted (a badge's room). */
  brief = false,
): string[] {
  const [first, second, ...rest] = allowlists ?? [];
  if (!first) return [];
  const named = (vouching: Vouching) =>
    t('count.vouching', { list: vouching.name, trust: t(`trust.${vouching.trust}`) });
  const lists =
    second === undefined
      ? named(first)
      : rest.length === 0 && !brief
        ? `${named(first)}${t('list.and')}${named(second)}`
        : t('count.vouchingMore', { list: named(first), n: rest.length + 1 });
  return [t('count.allowlisted', { lists })];
}

/**
 * `listed on 2 of 16 lists that answered; 2 did not answer`, `not listed on any of 18 lists;
 * 1 lists it for information only`, `no list answered; 18 on hold`, and for an IPv6 address
 * `not listed on any of 2 lists; 16 do not cover IPv6`; an allowlist's vouching after the
 * listings (`allowlisted on DNSWL.org (high trust)`).
 */
export function coverageText(coverage: ListCoverage, t: Translate): string {
  const { blocking, informational, answered } = coverage;
  const total = askableCount(coverage);
  const lists =
    answered === total
      ? t('count.lists', { n: total })
      : t('count.listsThatAnswered', { n: answered });
  const head =
    answered === 0
      ? t('count.noneAnswered')
      : blocking > 0
        ? t('count.listedOn', { listed: blocking, lists })
        : t('count.notListedOn', { lists });
  const poor = coverage.poor_reputation ?? 0;
  const note = [
    ...(informational > 0 ? [t('count.informational', { n: informational })] : []),
    ...(poor > 0 ? [t('count.poorReputation', { n: poor })] : []),
  ];
  return [
    head,
    ...note,
    ...vouchingTexts(coverage.allowlists, t),
    ...missingTexts(coverage, t),
  ].join('; ');
}

/**
 * What a result comes to, without target or verdict: `listed on 2 of 16 lists that answered;
 * 2 did not answer`, `not listed on any of 5 lists; 1 of 4 sender IPs listed`, `1 of 16 addresses
 * listed; lists: 2 did not answer`, `12 addresses found, none checked yet`.
 */
export function findingsOf(summary: ShareSummary, t: Translate): string {
  const providers = providerVerdicts(summary);
  if (providers) {
    const texts = providerTexts(providers, t, summary.providersUnseen);
    return t('mail.findings', { providers: texts.join(', ') });
  }
  const { coverage } = summary;
  const found = foundAddresses(summary);
  if (found !== undefined) return t('count.foundNotChecked', { n: found });
  if (summary.counts === 'addresses') {
    const missing = coverage ? missingTexts(coverage, t) : [];
    return [
      t('count.poolListed', { listed: summary.listed, n: summary.checked }),
      ...(missing.length > 0 ? [t('count.poolLists', { missing: missing.join(', ') })] : []),
    ].join('; ');
  }
  // Summaries made without counts (older results, tests) count only what answered.
  const lists = coverageText(
    { ...(coverage ?? withoutCounts(summary)), blocking: summary.listed },
    t,
  );
  const sent = senderAddresses(summary);
  const senders =
    sent && sent.total > 0
      ? [t('count.sendersListed', { listed: sent.listed, n: sent.total })]
      : [];
  return [lists, ...senders].join('; ');
}

/**
 * Each mailbox provider's verdict on a domain's mail setup: `Gmail: met, 4 rules not visible from
 * outside`, `Yahoo: met with warnings, 3 rules not visible from outside`, `Microsoft: not met`
 * (docs/mail.md): a met verdict is never bare, since some required rules cannot be seen.
 */
export function providerTexts(
  providers: ProviderVerdicts,
  t: Translate,
  unseen?: ShareSummary['providersUnseen'],
): string[] {
  return (Object.entries(providers) as [keyof ProviderVerdicts, ProviderVerdicts['gmail']][]).map(
    ([provider, verdict]) =>
      t('mail.providerVerdict', {
        provider: t(`mail.provider.${provider}`),
        verdict: providerVerdictText(verdict, unseen?.[provider] ?? 0, t),
      }),
  );
}

/** `met, 4 rules not visible from outside`; a verdict that is not met needs no such word. */
export function providerVerdictText(
  verdict: ProviderVerdicts['gmail'],
  unseen: number,
  t: Translate,
): string {
  const said = t(`mail.verdict.${verdict}`);
  return verdict === 'fail' || unseen === 0
    ? said
    : `${said}, ${t('mail.verdict.unseen', { n: unseen })}`;
}

function withoutCounts(summary: ShareSummary): ListCoverage {
  return {
    blocking: summary.listed,
    informational: 0,
    answered: summary.checked,
    not_answered: 0,
    on_hold: 0,
    disabled: 0,
    total: summary.checked,
  };
}

/**
 * The result in one sentence, counting every list: `203.0.113.7: poor, score 0/100; listed on 2 of
 * 16 lists that answered; 2 did not answer.` A pool discover has no verdict yet: `pool.example:
 * 12 addresses found, none checked yet.`
 */
export function sentenceOf(summary: ShareSummary, t: Translate): string {
  const findings = findingsOf(summary, t);
  if (foundAddresses(summary) !== undefined)
    return t('sentence.found', { target: summary.target, findings });
  const verdict = t(`sentence.verdict.${summary.verdict}`);
  return summary.score === null
    ? t('sentence.plain', { target: summary.target, verdict, findings })
    : t('sentence.scored', {
        target: summary.target,
        verdict,
        score: Math.round(summary.score),
        findings,
      });
}
