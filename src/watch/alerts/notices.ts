import { formatDate, type Lang, translator } from '../../i18n/index.js';
import type { WebhookFormat } from '../../webhooks/index.js';
import type { EmailContent } from '../email/index.js';
import type { NoticeEvent, SourceFailingEvent } from '../model/index.js';
import { type AlertMessage, type AlertSection, linker } from './message.js';
import { renderers, type WebhookRequest } from './renderers.js';

/**
 * The messages of the notices other subsystems send through the watch's channels
 * (docs/watch-engine.md, "Notices"), in the same message model as a watch's events, so every
 * renderer draws them: a reports inbox's failing source, and the confirmation of its address.
 */

/**
 * `reports.source_failing`: which address fails DMARC for which domain, how much of its mail,
 * who reported it, what to do, and the inbox's dashboard.
 */
export function sourceFailingMessage(
  event: SourceFailingEvent,
  lang: Lang,
  unsubscribe?: string,
): AlertMessage {
  const t = translator(lang);
  const { links, link } = linker();
  const { data } = event;
  const lines = [
    [
      t('reports.notice.failing', {
        fail: data.fail,
        messages: data.messages,
        from: data.period.from,
        to: data.period.to,
      }),
    ],
    ...(data.reporters.length > 0
      ? [[t('reports.notice.reporters', { reporters: data.reporters.join(', ') })]]
      : []),
    [t('reports.notice.advice')],
    [`${t('reports.notice.page')}: `, link('page', data.view_url)],
  ];
  const sections: AlertSection[] = [{ lines }];
  if (unsubscribe !== undefined) {
    sections.push({
      lines: [[t('reports.notice.footer')], [link('unsubscribe', unsubscribe)]],
    });
  }
  return {
    title: t('reports.notice.failingTitle', { ip: data.source_ip, domain: data.domain }),
    sections,
    links,
  };
}

/** The confirmation of a reports inbox's address: what it will be sent, its link, until when. */
export function inboxConfirmMessage(input: {
  lang: Lang;
  domain: string;
  confirmUrl: string;
  expiresAt: string;
}): AlertMessage {
  const t = translator(input.lang);
  const { links, link } = linker();
  const { domain } = input;
  return {
    title: t('reports.notice.confirmSubject', { domain }),
    sections: [
      { lines: [[t('reports.notice.confirmIntro', { domain })]] },
      { lines: [[t('email.confirm.action')], [link('confirm', input.confirmUrl)]] },
      {
        lines: [
          [t('email.confirm.expires', { at: formatDate(input.lang, input.expiresAt) })],
          [t('email.confirm.ignore')],
        ],
      },
    ],
    links,
  };
}

/** A notice's message: its event's (one type so far). */
function noticeMessage(event: NoticeEvent, lang: Lang, unsubscribe?: string): AlertMessage {
  return sourceFailingMessage(event, lang, unsubscribe);
}

/** What a notice's webhook is sent: the event as kept, or its message in the chat format. */
export function noticeRequest(input: {
  format: WebhookFormat;
  body: string;
  lang: Lang;
  url: string;
}): WebhookRequest {
  const event = JSON.parse(input.body) as NoticeEvent;
  return renderers[input.format]({
    body: input.body,
    event,
    url: input.url,
    message: () => noticeMessage(event, input.lang),
  });
}

/** A notice's e-mail: an event's alert with its one-click link, or an address's confirmation. */
export function renderNoticeEmail(
  input:
    | { kind: 'alert'; event: NoticeEvent; lang: Lang; unsubscribeUrl: string }
    | { kind: 'confirm'; lang: Lang; domain: string; confirmUrl: string; expiresAt: string },
): EmailContent {
  const message =
    input.kind === 'confirm'
      ? inboxConfirmMessage(input)
      : noticeMessage(input.event, input.lang, input.unsubscribeUrl);
  return {
    subject: message.title,
    text: renderers.emailText(message),
    html: renderers.emailHtml(message),
  };
}
