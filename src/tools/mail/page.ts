import { html } from 'hono/html';
import type { MailCheckResult } from '../../reputation/index.js';
import { addressHtml, type Html, type ResultContext, type ResultView } from '../../pages/index.js';

/**
 * A mail check on the share page and the check page: first a checklist per mailbox provider (each
 * bulk-sender rule with its status, what was seen, and the provider's page), then what cost
 * points, then the details: SPF, DKIM, DMARC, BIMI, the MX servers, MTA-STS, TLS-RPT, DANE
 * (docs/mail.md). Host names, records and ciphers are `<code>`, which may wrap anywhere; words
 * never do.
 */

type Provider = 'gmail' | 'yahoo' | 'microsoft';
type ProviderVerdict = MailCheckResult['requirements'][Provider];
type Rule = ProviderVerdict['rules'][number];
type MxHost = MailCheckResult['mx'][number];

type Translate = ResultContext['t'];

const providers: readonly Provider[] = ['gmail', 'yahoo', 'microsoft'];

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

export function mailPage(stored: Record<string, unknown>, context: ResultContext): ResultView {
  const result = stored as unknown as MailCheckResult;
  return { details: mailDetails(result, context), verdictShown: true };
}

function mailDetails(result: MailCheckResult, context: ResultContext): Html {
  const { t } = context;
  return html`<div class="mail-result">
    <h2>${t('mail.requirements')}</h2>
    <p class="note">${t('mail.scope')}</p>
    ${providers.map((provider) => providerChecklist(provider, result.requirements[provider], context))}
    ${findingsTable(result, context)}
    <h2>${t('mail.authentication')}</h2>
    ${authentication(result, t)}
    <h2>${t('mail.transport')}</h2>
    ${mxTable(result, t)} ${transport(result, t)}
    ${
      result.notes.length > 0
        ? html`<ul class="mail-notes note">
            ${result.notes.map((note) => html`<li lang="en">${note}</li>`)}
          </ul>`
        : ''
    }
  </div>`;
}

/** One provider: its verdict, the page its rules come from, and each rule with what was seen. */
function providerChecklist(
  provider: Provider,
  verdict: ProviderVerdict,
  { t, lang }: Pick<ResultContext, 't' | 'lang'>,
): Html {
  const source = verdict.rules[0]?.source;
  return html`<section class="mail-provider" data-provider="${provider}">
    <h3>
      ${t(`mail.provider.${provider}`)}
      <span class="pill verdict-${providerPills[verdict.verdict]}"
        >${t(`mail.verdict.${verdict.verdict}`)}</span
      >
    </h3>
    ${
      source
        ? html`<p class="note">
            <a href="${source.url}" rel="noopener">${source.title}</a>
            ${source.date ? t('mail.inEffect', { date: source.date }) : ''}
          </p>`
        : ''
    }
    <div class="table-scroll">
      <table class="stacked mail-checklist">
        <thead>
          <tr>
            <th>${t('mail.rule')}</th>
            <th>${t('result.status')}</th>
            <th>${t('result.details')}</th>
          </tr>
        </thead>
        <tbody>
          ${verdict.rules.map(
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
    </div>
  </section>`;
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
function findingsTable(
  result: MailCheckResult,
  { t, lang }: Pick<ResultContext, 't' | 'lang'>,
): Html {
  const factors = result.mail_score.factors;
  if (factors.length === 0)
    return html`<h2>${t('result.factors')}</h2>
      <p class="note">${t('result.noFactors')}</p>`;
  return html`<h2>${t('result.factors')}</h2>
    <div class="table-scroll">
      <table class="stacked mail-findings">
        <thead>
          <tr>
            <th>${t('result.factor')}</th>
            <th>${t('mail.whatToDo')}</th>
            <th>${t('result.points')}</th>
          </tr>
        </thead>
        <tbody>
          ${factors.map(
            (factor) =>
              html`<tr data-code="${factor.code}">
                <td data-label="${t('result.factor')}">${findingName(factor.code, t)}</td>
                <td data-label="${t('mail.whatToDo')}">
                  ${findingAdvice(factor.code, t)}
                  ${lang === 'en' ? html`<br /><span class="note">${factor.detail}</span>` : ''}
                </td>
                <td data-label="${t('result.points')}" class="points-negative">
                  ${String(factor.points)}
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
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

function authentication(result: MailCheckResult, t: Translate): Html {
  const { spf, dkim, dmarc, bimi } = result;
  return html`<dl class="facts">
      <dt>${t('result.spf')}</dt>
      <dd>
        ${spf.record === null ? t(`spf.${spf.status}`) : html`<code>${spf.record}</code>`}
        ${spf.record === null ? '' : html`<br />${t('mail.spfLookups', { n: spf.lookups, void: spf.voidLookups })}`}
        ${spf.error ? html`<br /><span class="status-error"><code>${spf.error.kind}</code></span>` : ''}
      </dd>
      <dt>${t('result.dmarc')}</dt>
      <dd>
        ${dmarc.record === null ? t(`dmarc.${dmarc.status}`) : html`<code>${dmarc.record}</code>`}
        ${
          dmarc.p === null
            ? ''
            : html`<br />${t('mail.dmarcPolicy', {
                  p: dmarc.p,
                  sp: dmarc.sp ?? dmarc.p,
                  pct: dmarc.pct,
                  adkim: dmarc.adkim,
                  aspf: dmarc.aspf,
                })}`
        }
        ${
          dmarc.applied === 'organizational' && dmarc.domain
            ? html`<br /><span class="note"
                  >${t('result.dmarcFrom', { domain: dmarc.domain })}</span
                >`
            : ''
        }
        ${[...dmarc.rua, ...dmarc.ruf].map(
          (destination) =>
            html`<br /><code>${destination.uri}</code> ${
                destination.external
                  ? html`<span
                      class="${destination.authorized === false ? 'status-listed' : 'status-clean'}"
                      >${t(
                        destination.authorized === null
                          ? 'mail.report.unasked'
                          : destination.authorized
                            ? 'mail.report.authorized'
                            : 'mail.report.unauthorized',
                      )}</span
                    >`
                  : ''
              }`,
        )}
      </dd>
      <dt>${t('mail.dkim')}</dt>
      <dd>
        ${t(`mail.dkim.${dkim.status}`)}
        <span class="note">${t('mail.dkimTried', { n: dkim.tried.length })}</span>
      </dd>
      <dt>${t('mail.bimi')}</dt>
      <dd>
        ${t(`mail.bimi.${bimi.status}`)} ${bimi.l ? html`<br /><code>${bimi.l}</code>` : ''}
        ${bimi.a ? html`<br /><code>${bimi.a}</code>` : ''}
        ${
          bimi.status === 'none'
            ? ''
            : html`<br /><span class="${bimi.dmarc_ready ? 'note' : 'status-error'}"
                  >${t(bimi.dmarc_ready ? 'mail.bimi.ready' : 'mail.bimi.notReady')}</span
                >`
        }
      </dd>
    </dl>
    ${dkim.selectors.length > 0 ? dkimTable(dkim.selectors, t) : ''}`;
}

type Selector = MailCheckResult['dkim']['selectors'][number];

const selectorTones: Record<Selector['status'], string> = {
  found: 'clean',
  none: 'informational',
  invalid: 'listed',
  revoked: 'error',
};

function dkimTable(selectors: readonly Selector[], t: Translate): Html {
  return html`<div class="table-scroll">
    <table class="stacked mail-dkim">
      <thead>
        <tr>
          <th>${t('mail.selector')}</th>
          <th>${t('result.status')}</th>
          <th>${t('mail.key')}</th>
        </tr>
      </thead>
      <tbody>
        ${selectors.map(
          (selector) =>
            html`<tr>
              <td data-label="${t('mail.selector')}"><code>${selector.selector}</code></td>
              <td
                data-label="${t('result.status')}"
                class="status-${selectorTones[selector.status]}"
              >
                ${t(`mail.key.${selector.status}`)}
                ${selector.testing ? html`<span class="note">${t('mail.key.testing')}</span>` : ''}
              </td>
              <td
                data-label="${t('mail.key')}"
                class="${selector.key_type === null && !selector.detail ? 'empty' : ''}"
              >
                ${
                  selector.key_type === null
                    ? ''
                    : t('mail.key.size', {
                        type: selector.key_type.toUpperCase(),
                        bits: selector.key_bits ?? 0,
                      })
                }
                ${selector.warning ? html`<br /><span class="status-error">${t('mail.key.short')}</span>` : ''}
                ${selector.detail ? html`<br /><span class="note" lang="en">${selector.detail}</span>` : ''}
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

const smtpTones: Record<MxHost['smtp']['status'], string> = {
  ok: 'clean',
  no_starttls: 'listed',
  timeout: 'error',
  refused: 'error',
  error: 'error',
  not_probed: 'informational',
};

function mxTable(result: MailCheckResult, t: Translate): Html | string {
  if (result.null_mx) return html`<p class="note">${t('mail.nullMx')}</p>`;
  if (result.mx.length === 0) return html`<p class="note">${t('mail.noMx')}</p>`;
  return html`${result.implicit_mx ? html`<p class="note">${t('mail.implicitMx')}</p>` : ''}
    <div class="table-scroll">
      <table class="stacked mail-mx">
        <thead>
          <tr>
            <th>${t('mail.mxHost')}</th>
            <th>${t('mail.smtp')}</th>
            <th>${t('mail.tls')}</th>
            <th>${t('mail.certificate')}</th>
          </tr>
        </thead>
        <tbody>
          ${result.mx.map((host) => mxRow(host, t))}
        </tbody>
      </table>
    </div>
    ${
      result.mx_total > result.mx.length
        ? html`<p class="note">${t('result.more', { n: result.mx_total - result.mx.length })}</p>`
        : ''
    }`;
}

function mxRow(host: MxHost, t: Translate): Html {
  const { smtp } = host;
  const certificate = smtp.certificate;
  return html`<tr data-host="${host.host}" data-smtp="${smtp.status}">
    <td data-label="${t('mail.mxHost')}">
      <code>${host.host}</code> <span class="note">${host.preference}</span>
      ${smtp.address ? html`<br /><span class="ipv6">${addressHtml(smtp.address)}</span>` : ''}
    </td>
    <td data-label="${t('mail.smtp')}" class="status-${smtpTones[smtp.status]}">
      ${t(`mail.smtp.${smtp.status}`)}
      ${smtp.stage && smtp.status !== 'ok' ? html`<span class="note">${t(`mail.stage.${smtp.stage}`)}</span>` : ''}
      ${smtp.detail && smtp.status !== 'ok' ? html`<br /><span class="note" lang="en">${smtp.detail}</span>` : ''}
    </td>
    <td data-label="${t('mail.tls')}" class="${smtp.tls ? '' : 'empty'}">
      ${smtp.tls ? html`${smtp.tls.version} <code>${smtp.tls.cipher}</code>` : ''}
    </td>
    <td data-label="${t('mail.certificate')}" class="${certificate ? '' : 'empty'}">
      ${
        certificate
          ? html`<span
                class="${certificate.trusted && certificate.name_matches ? 'status-clean' : 'status-listed'}"
                >${t(
                  certificate.trusted
                    ? 'mail.cert.trusted'
                    : certificate.name_matches
                      ? 'mail.cert.untrusted'
                      : 'mail.cert.wrongName',
                )}</span
              >
              <br /><span class="${certificate.days_left < 14 ? 'status-error' : 'note'}"
                >${
                  certificate.days_left < 0
                    ? t('mail.cert.expired')
                    : t('mail.cert.daysLeft', { n: certificate.days_left })
                }</span
              >
              <br /><span class="note">${certificate.issuer}</span>`
          : ''
      }
    </td>
  </tr>`;
}

function transport(result: MailCheckResult, t: Translate): Html {
  const { mta_sts: sts, tls_rpt: rpt, dane } = result;
  return html`<dl class="facts">
    <dt>${t('mail.mtaSts')}</dt>
    <dd>
      <span
        class="status-${sts.status === 'invalid' || sts.status === 'error' ? 'listed' : sts.status === 'enforce' ? 'clean' : 'informational'}"
        >${t(`mail.mtaSts.${sts.status}`)}</span
      >
      ${sts.id ? html`<span class="note">id <code>${sts.id}</code></span>` : ''}
      ${
        sts.policy
          ? html`<br />${t('mail.mtaSts.policy', { mode: sts.policy.mode, age: sts.policy.max_age })}
              ${sts.policy.mx.map((pattern) => html` <code>${pattern}</code>`)}`
          : ''
      }
      ${
        sts.mx_covered === null
          ? ''
          : html`<br /><span class="${sts.mx_covered ? 'status-clean' : 'status-listed'}"
                >${sts.mx_covered ? t('mail.mtaSts.covered') : t('mail.mtaSts.uncovered')}</span
              >
              ${sts.uncovered.map((host) => html` <code>${host}</code>`)}`
      }
      ${sts.detail && (sts.status === 'invalid' || sts.status === 'error') ? html`<br /><span class="note" lang="en">${sts.detail}</span>` : ''}
    </dd>
    <dt>${t('mail.tlsRpt')}</dt>
    <dd>
      ${t(`mail.tlsRpt.${rpt.status}`)} ${rpt.rua.map((uri) => html`<br /><code>${uri}</code>`)}
    </dd>
    <dt>${t('mail.dane')}</dt>
    <dd>
      ${t(`mail.dane.${dane.status}`)}
      ${dane.validating === false ? html`<br /><span class="status-error">${t('mail.dane.notValidating')}</span>` : ''}
      ${
        // Records found, none of them secure, from a resolver that validates: unsigned zones.
        dane.validating === true &&
        dane.hosts.some((host) => host.status === 'found') &&
        dane.hosts.every((host) => host.authenticated !== true)
          ? html`<br /><span class="status-error">${t('mail.dane.unsigned')}</span>`
          : ''
      }
      ${dane.hosts
        .filter((host) => host.status === 'found')
        .map(
          (host) =>
            html`<br /><code>_25._tcp.${host.host}</code>
              ${t('mail.dane.records', { n: host.records.length })}
              ${host.authenticated ? html`<span class="status-clean">${t('mail.dane.authenticated')}</span>` : ''}`,
        )}
    </dd>
  </dl>`;
}
