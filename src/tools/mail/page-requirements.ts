import { html } from 'hono/html';
import type { MailCheckResult } from '../../reputation/index.js';
import { type Html, pointsTable, type ResultContext } from '../../pages/index.js';
import { providerVerdictText } from '../../share/index.js';

/**
 * The mail page's rules: a checklist per mailbox provider (each bulk-sender rule with its status,
 * what was seen, and the page that states it), the receiving side's STARTTLS as a rule of its
 * own, and what cost points, each finding explained in the page's language.
 */

export type Provider = 'gmail' | 'yahoo' | 'microsoft';
type ProviderVerdict = MailCheckResult['requirements'][Provider];
type Rule = ProviderVerdict['rules'][number];

type Translate = ResultContext['t'];

export const providers: readonly Provider[] = ['gmail', 'yahoo', 'microsoft'];

/** The pages' tones (assets/pages/pages.css): a failed rule as a listing, a warning as fair. */
const ruleTones: Record<Rule['status'], string> = {
  pass: 'clean',
  // Met in DNS, not proven: the plain colour of a note, not the green of a pass.
  ready: 'informational',
  warn: 'poor_reputation',
  fail: 'listed',
  unknown: 'informational',
};
const providerPills: Record<ProviderVerdict['verdict'], string> = {
  pass: 'good',
  warn: 'fair',
  fail: 'poor',
};

/**
 * One provider: its verdict (a met one with the required rules not visible from outside), the
 * pages its rules come from, and each rule with what was seen.
 */
export function providerChecklist(
  provider: Provider,
  verdict: ProviderVerdict,
  { t, lang }: Pick<ResultContext, 't' | 'lang'>,
): Html {
  const sources = [
    ...new Map(verdict.rules.map((rule) => [rule.source.url, rule.source])).values(),
  ];
  return html`<section class="mail-provider" data-provider="${provider}">
    <h3>
      ${t(`mail.provider.${provider}`)}
      <span class="pill verdict-${providerPills[verdict.verdict]}"
        >${providerVerdictText(verdict.verdict, verdict.unseen ?? 0, t)}</span
      >
    </h3>
    ${sources.map(
      (source) =>
        html`<p class="note">
          <a href="${source.url}" rel="noopener">${source.title}</a>
          ${source.date ? t('mail.inEffect', { date: source.date }) : ''}
        </p>`,
    )}
    ${rulesTable(verdict.rules, { t, lang })}
  </section>`;
}

/**
 * The receiving side: the MX servers' STARTTLS, a rule of its own that no provider's verdict
 * requires (the providers' TLS rule is the sending side's).
 */
export function inboundTls(
  result: MailCheckResult,
  { t, lang }: Pick<ResultContext, 't' | 'lang'>,
): Html | string {
  // Results stored before the rule was reported have none.
  if (!result.inbound_tls) return '';
  return html`<section class="mail-provider" data-provider="receiving">
    <h3>${t('mail.receiving')}</h3>
    <p class="note">${t('mail.receiving.note')}</p>
    ${rulesTable([result.inbound_tls], { t, lang })}
  </section>`;
}

function rulesTable(rules: readonly Rule[], { t, lang }: Pick<ResultContext, 't' | 'lang'>): Html {
  return html`<div class="table-scroll">
    <table class="stacked mail-checklist">
      <thead>
        <tr>
          <th>${t('mail.rule')}</th>
          <th>${t('result.status')}</th>
          <th>${t('result.details')}</th>
        </tr>
      </thead>
      <tbody>
        ${rules.map(
          (rule) =>
            html`<tr data-rule="${rule.rule}" data-status="${rule.status}">
              <td data-label="${t('mail.rule')}">
                ${t(`mail.rule.${rule.rule}`)}
                <span class="note">${t(rule.required ? 'mail.required' : 'mail.advised')}</span>
              </td>
              <td
                data-label="${t('result.status')}"
                class="nowrap status-${ruleTones[rule.status]}"
              >
                ${t(`mail.status.${rule.status}`)}
              </td>
              <td data-label="${t('result.details')}">${ruleDetail(rule, t, lang)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/**
 * What the rule found: what cannot be seen from outside in the page's language. On the English
 * page, the check's own words, which name the hosts and records it saw; on another, what to do
 * about a failed or warned rule in that language (the hosts and records are in the details
 * below), so the page speaks one language (docs/pages.md).
 */
function ruleDetail(rule: Rule, t: Translate, lang: ResultContext['lang']): Html | string {
  if (rule.status === 'unknown') return t(`mail.unknown.${unknownRule(rule.rule)}`);
  if (lang === 'en') return rule.detail;
  if (rule.status === 'pass') return t('mail.rulePassed');
  if (rule.status === 'ready') return t('mail.ruleReady');
  const code = `${rule.rule}_${rule.status}`;
  return knownFinding(code) ? t(`mail.advice.${code}`) : t('mail.unknown.other');
}

function unknownRule(
  rule: Rule['rule'],
): 'spam_rate' | 'one_click_unsubscribe' | 'message_format' | 'other' {
  return rule === 'spam_rate' || rule === 'one_click_unsubscribe' || rule === 'message_format'
    ? rule
    : 'other';
}

/** What cost points, each finding explained with what to do, in the page's language. */
export function findingsTable(
  result: MailCheckResult,
  { t, lang }: Pick<ResultContext, 't' | 'lang'>,
): Html {
  return pointsTable(
    result.mail_score.factors.map((factor) => ({
      code: factor.code,
      name: findingName(factor.code, t),
      detail: html`${findingAdvice(factor.code, t)}
      ${lang === 'en' ? html`<br /><span class="note">${factor.detail}</span>` : ''}`,
      points: factor.points,
    })),
    t,
    { detailHeading: t('mail.whatToDo'), className: 'stacked mail-findings' },
  );
}

/** The catalogs' name of a finding code; a code of a newer check than these pages, as it is. */
function findingName(code: string, t: Translate): string {
  return knownFinding(code) ? t(`mail.finding.${code}`) : code;
}

function findingAdvice(code: string, t: Translate): string {
  return knownFinding(code) ? t(`mail.advice.${code}`) : '';
}

export const mailFindingCodes = [
  'spf_fail',
  'spf_warn',
  'dkim_fail',
  'dkim_warn',
  'dmarc_fail',
  'dmarc_warn',
  'alignment_fail',
  'alignment_warn',
  'ptr_fail',
  'ptr_warn',
  'inbound_tls_fail',
  'inbound_tls_warn',
  'listing_fail',
  'listing_warn',
  'domain_listed',
  'domain_on_major_list',
  'provider_rules_not_met',
  'dmarc_not_enforced',
  'mx_certificate',
  'mta_sts_invalid',
  'mta_sts_error',
  'mta_sts_mx_uncovered',
  'tls_rpt_invalid',
  'bimi_invalid',
  'dmarc_reports_unauthorised',
] as const;
type FindingCode = (typeof mailFindingCodes)[number];

function knownFinding(code: string): code is FindingCode {
  return (mailFindingCodes as readonly string[]).includes(code);
}
