import { html } from 'hono/html';
import {
  formatInterval,
  type Lang,
  type MessageKey,
  type Translate,
  messagesFor,
  toolText,
} from '../i18n/index.js';
import { renderPage } from './layout.js';
import type { Site } from './site.js';

/**
 * The check page: one form for every tool of the registry (src/tools/registry.ts), in its order.
 * The server draws the form in the reader's language; the page script posts the check, shows the
 * captcha widget when the status asks for one, and shows the result section of the share page
 * (docs/pages.md).
 */

/** A tool as the form offers it, read from the tool's definition and its routes. */
export interface PageTool {
  name: string;
  /** The body field the form's one input fills (the first field of the first check's body). */
  field: string;
  /**
   * Its checks' paths under the base path (`ip/v1`, `pool/v1/discover`): the form posts the
   * first; where there is a second, the addresses the first found are picked and posted to it.
   */
  checks: string[];
  /** The button's text. */
  submit: MessageKey;
  /**
   * False for a tool whose check asks no blocklist it cannot do without (the mail tool): the page
   * offers it while no list is proven, as its route runs it then.
   */
  needsLists: boolean;
}

/**
 * What the page tells whoever runs the service while no list is proven: the variable that names
 * the resolver (DNS_SERVERS, or DOH_URL on Workers and over DoH), and the command that tries the
 * service offline where there is one (`npm run demo`).
 */
export interface ResolverAdvice {
  setting: string;
  offlineDemo?: string;
}

/** The messages the page script formats itself, besides the tools' own. */
const scriptMessages: readonly MessageKey[] = [
  'check.busy',
  'check.remaining',
  'check.captcha',
  'check.cached',
  'check.pick',
  'check.pickAll',
  'check.pickNone',
  'check.checkChosen',
  'check.pickSome',
  'check.pickEvery',
  'error.invalid_json',
  'error.invalid_request',
  'error.invalid_target',
  'error.captcha_required',
  'error.captcha_failed',
  'error.not_found',
  'error.method_not_allowed',
  'error.body_too_large',
  'error.unsupported_media_type',
  'error.quota_exceeded',
  'error.not_configured',
  'error.dns_unavailable',
  'error.store_unavailable',
  'error.invalid_webhook',
  'error.manage_key_required',
  'error.manage_key_wrong',
  'error.watch_limit',
  'error.watch_capacity',
  'error.invalid_email',
  'error.email_unavailable',
  'error.email_limit',
  'error.captcha_unavailable',
  'error.busy',
  'error.internal',
  'error.network',
  'error.other',
  'share.links',
  'share.page',
  'share.badge',
  'share.card',
  'share.json',
  'share.copy',
  'share.copied',
  'check.foundChecked',
  'check.checkedAddresses',
  'watch.offer.ip',
  'watch.offer.domain',
  'watch.offer.mail',
  'watch.offer.hint',
  'watch.offer.hint.mail',
  'watch.start',
  'watch.busy',
  'watch.created',
  'interval.seconds',
  'watch.pageLink',
  'watch.badge',
  'watch.manageKey',
  'watch.secret',
  'watch.shownOnce',
  'watch.shownOnceKey',
];

export interface CheckPage {
  site: Site;
  lang: Lang;
  t: Translate;
  /** Every tool, in the registry's order. */
  tools: readonly PageTool[];
  /** The one chosen. */
  tool: PageTool;
  /** Filled into the field (a form sent without the script, or a link). */
  target: string;
  languageHref: (lang: Lang) => string;
  /**
   * False while no blocklist is proven to answer honestly: the page says the list checks are not
   * ready and what the operator can do, and offers only the tools whose checks run meanwhile
   * (`tools` holds only those); the resolver's own reason stays in the logs, the status JSON and
   * GET /lists (docs/pages.md).
   */
  ready: boolean;
  /** What the not-ready notice tells the operator. */
  advice: ResolverAdvice;
}

/**
 * Error codes whose detail speaks to the operator (a resolver, a variable, a store), not to the
 * reader: the script shows the localised message alone.
 */
const operatorCodes = ['not_configured', 'store_unavailable', 'internal'] as const;

/** The texts of the tools the script switches between (`tool.ip.label`, ...). */
function toolMessages(tools: readonly PageTool[]): MessageKey[] {
  return tools.flatMap((tool) =>
    (['label', 'hint', 'placeholder'] as const).map(
      (text) => `tool.${tool.name}.${text}` as MessageKey,
    ),
  );
}

export function renderCheckPage(page: CheckPage): Promise<string> {
  const { site, lang, t, tools } = page;
  const content = html`<h1>${t('check.title')}</h1>
    <p class="lead">${t('site.tagline')}</p>
    ${page.ready ? '' : notReady(page)} ${page.tools.length > 0 ? checkForm(page) : ''}
    <p class="note">${t('check.intro')}</p>
    <p class="note">
      <a id="lists-link" href="${site.root}/lists?lang=${lang}">${t('lists.link')}</a>
    </p>`;
  return renderPage({
    site,
    lang,
    t,
    title: `${t('check.title')} – ${t('site.name')}`,
    description: t('site.tagline'),
    head: html`<meta property="og:type" content="website" />
      <meta property="og:site_name" content="${t('site.name')}" />
      <meta property="og:title" content="${t('check.title')}" />
      <meta property="og:description" content="${t('site.tagline')}" />`,
    languageHref: page.languageHref,
    data: {
      base: site.root,
      poolMaxIps: site.poolMaxIps,
      // The intervals offered, in words, for the script's "Watching ...: re-checked every hour".
      watchIntervals: Object.fromEntries(
        watchIntervals(site.watch).map((seconds) => [seconds, formatInterval(t, seconds)]),
      ),
      captcha: site.captcha?.widget ?? null,
      // A watch's first check asks the lists: none is offered while they are not ready.
      watching: page.ready,
      operatorCodes,
      tools: Object.fromEntries(
        tools.map(({ name, field, checks, submit, needsLists }) => [
          name,
          { field, checks, submit, needsLists },
        ]),
      ),
      messages: messagesFor(lang, [
        ...toolMessages(tools),
        ...new Set([...scriptMessages, ...tools.map((entry) => entry.submit)]),
      ]),
    },
    content,
  });
}

function notReady({ t, tools, advice }: CheckPage) {
  return html`<section id="not-ready" class="panel notice" role="status">
    <p><strong>${t('check.notReady')}</strong></p>
    ${tools.length > 0 ? html`<p>${t('check.notReadyOthers')}</p>` : ''}
    <p class="note">
      ${t('check.notReadyOperator', { setting: advice.setting })}
      ${advice.offlineDemo ? t('check.notReadyOffline', { command: advice.offlineDemo }) : ''}
    </p>
  </section>`;
}

function checkForm(page: CheckPage) {
  const { lang, t, tools } = page;
  const tool = page.tool.name;
  return html`<form id="check-form" class="panel" novalidate>
      <input type="hidden" name="lang" value="${lang}" />
      <fieldset class="tools">
        <legend>${t('check.what')}</legend>
        ${tools.map(
          ({ name }) =>
            html`<label
              ><input type="radio" name="tool" value="${name}" ${name === tool ? 'checked' : ''} />
              ${toolText(t, 'tool', name)}</label
            >`,
        )}
      </fieldset>
      <label class="field-label" id="target-label" for="target"
        >${t(`tool.${tool}.label` as MessageKey)}</label
      >
      <div class="row">
        <input
          type="text"
          id="target"
          name="target"
          value="${page.target}"
          placeholder="${t(`tool.${tool}.placeholder` as MessageKey)}"
          autocomplete="off"
          autocapitalize="off"
          spellcheck="false"
          maxlength="1024"
        />
        <button type="submit" id="submit">${t(page.tool.submit)}</button>
      </div>
      <p id="tool-hint" class="hint">${t(`tool.${tool}.hint` as MessageKey)}</p>
      ${selectorField(page)}
      <div id="captcha" class="captcha" hidden></div>
      <p id="quota" class="quota" aria-live="polite"></p>
      <p id="form-error" class="error" role="alert" hidden></p>
      <noscript><p class="note">${t('check.noScript')}</p></noscript>
    </form>
    <div id="outcome" aria-live="polite"></div>
    ${watchOffer(page)}`;
}

/**
 * The mail check's optional DKIM selectors (`dkim_selectors`, docs/mail.md): DNS cannot list a
 * domain's selectors, so the advice asks the caller to name theirs here. Shown while the mail tool
 * is chosen (`data-tool`); the script sends its words, split at commas and spaces, as the list
 * `data-body-list` names.
 */
function selectorField({ t, tools, tool }: CheckPage) {
  if (!tools.some((entry) => entry.name === 'mail')) return '';
  return html`<div class="tool-field" data-tool="mail" ${tool.name === 'mail' ? '' : 'hidden'}>
    <label class="field-label" for="dkim-selectors">${t('check.dkimSelectors')}</label>
    <input
      type="text"
      id="dkim-selectors"
      name="dkim_selectors"
      data-body-list="dkim_selectors"
      placeholder="${t('check.dkimSelectors.placeholder')}"
      autocomplete="off"
      autocapitalize="off"
      spellcheck="false"
      maxlength="700"
    />
    <p class="hint">${t('check.dkimSelectors.hint')}</p>
  </div>`;
}

/**
 * The intervals people usually want, as the form offers them: those within WATCH_MIN_INTERVAL_S
 * and a week, with the minimum itself and the service's default added when the list lacks them.
 */
const usualIntervals = [300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 604_800];

export function watchIntervals(form: Site['watch']): number[] {
  const allowed = usualIntervals.filter(
    (seconds) => seconds >= form.minIntervalS && seconds <= form.maxIntervalS,
  );
  return [...new Set([form.minIntervalS, form.intervalS, ...allowed])].sort((a, b) => a - b);
}

/** The `webhook_format` values of POST /watch/v1 (docs/watches.md, "Chat formats"); '' is none sent. */
const webhookFormats = ['', 'standard', 'slack', 'discord', 'telegram', 'ntfy'] as const;

/**
 * "Watch this address" (docs/pages.md#check-page): hidden until an IP or domain result is shown;
 * the script posts `watch/v1` with that target, the interval, the webhook and its format (and the
 * e-mail address, where the service sends e-mail), and shows the answer's links and its
 * once-shown keys in #watch-created (docs/pages.md).
 */
function watchOffer({ site, t }: CheckPage) {
  const form = site.watch;
  return html`<section id="watch" class="panel watch" hidden>
    <h2 id="watch-title">${t('watch.offer.ip')}</h2>
    <p class="hint" id="watch-hint">${t('watch.offer.hint')}</p>
    <form id="watch-form" novalidate>
      <div class="watch-options">
        <label class="field-label" for="watch-interval">${t('watch.intervalLabel')}</label>
        <select id="watch-interval" name="interval_s">
          ${watchIntervals(form).map(
            (seconds) =>
              html`<option value="${seconds}" ${seconds === form.intervalS ? 'selected' : ''}>
                ${formatInterval(t, seconds)}
              </option>`,
          )}
        </select>
      </div>
      <label class="field-label" for="watch-webhook">${t('watch.webhook')}</label>
      <input
        type="url"
        id="watch-webhook"
        name="webhook_url"
        placeholder="https://hooks.example.com/reputation"
        autocomplete="off"
        spellcheck="false"
        maxlength="2048"
      />
      <p class="hint">${t('watch.webhookHint')}</p>
      <div class="watch-options">
        <label class="field-label" for="watch-format">${t('watch.formatLabel')}</label>
        <select id="watch-format" name="webhook_format">
          ${webhookFormats.map(
            (format) =>
              html`<option value="${format}">
                ${t(`watch.format.${format || 'auto'}` as MessageKey)}
              </option>`,
          )}
        </select>
      </div>
      ${
        form.email
          ? html`<label class="field-label" for="watch-email">${t('watch.email')}</label>
              <input
                type="email"
                id="watch-email"
                name="email"
                autocomplete="email"
                spellcheck="false"
                maxlength="254"
              />
              <p class="hint">${t('watch.emailHint')}</p>`
          : ''
      }
      <div class="row">
        <button type="submit" id="watch-submit">${t('watch.start')}</button>
      </div>
      <p id="watch-error" class="error" role="alert" hidden></p>
    </form>
    <div id="watch-created" aria-live="polite"></div>
  </section>`;
}
