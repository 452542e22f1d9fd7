import { html } from 'hono/html';
import type { MailCheckResult } from '../../reputation/index.js';
import { addressHtml, type Html, type ResultContext } from '../../pages/index.js';

/**
 * The mail page's transport details: a row per MX server (its SMTP probe, TLS and certificate),
 * then MTA-STS, TLS-RPT and DANE.
 */

type MxHost = MailCheckResult['mx'][number];
type Translate = ResultContext['t'];
type Lang = ResultContext['lang'];

const smtpTones: Record<MxHost['smtp']['status'], string> = {
  ok: 'clean',
  no_starttls: 'listed',
  timeout: 'error',
  refused: 'error',
  error: 'error',
  not_probed: 'informational',
};

export function mxTable(result: MailCheckResult, t: Translate, lang: Lang): Html | string {
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
          ${result.mx.map((host) => mxRow(host, t, lang))}
        </tbody>
      </table>
    </div>
    ${
      result.mx_total > result.mx.length
        ? html`<p class="note">${t('result.more', { n: result.mx_total - result.mx.length })}</p>`
        : ''
    }`;
}

/**
 * Why a probe is not ok: the probe's own words on the English page (they name the stage's bound,
 * the server's reply); in another language what its status means, the stage said beside it.
 */
function smtpDetail(host: MxHost, t: Translate, lang: Lang): Html | string {
  const { smtp } = host;
  if (smtp.status === 'ok' || smtp.detail === null) return '';
  if (lang === 'en') return html`<br /><span class="note">${smtp.detail}</span>`;
  return html`<br /><span class="note">${t(`mail.smtpDetail.${smtp.status}`)}</span>`;
}

/** `ERR_TLS_CERT_ALTNAME_INVALID` with a line break allowed after each underscore. */
function underscoreBreaks(code: string): Html[] {
  return code.split('_').map((part, i) => (i === 0 ? html`${part}` : html`_<wbr />${part}`));
}

function mxRow(host: MxHost, t: Translate, lang: Lang): Html {
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
      ${smtpDetail(host, t, lang)}
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
              ${certificate.trust_error ? html`<br /><code>${underscoreBreaks(certificate.trust_error)}</code>` : ''}
              <br /><span class="note">${certificate.subject_names.join(', ')}</span> <br /><span
                class="note"
                >${certificate.issuer}</span
              >`
          : ''
      }
    </td>
  </tr>`;
}

export function transport(result: MailCheckResult, t: Translate): Html {
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
      ${dane.validating === false ? html`<br /><span class="note">${t('mail.dane.notValidating')}</span>` : ''}
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
