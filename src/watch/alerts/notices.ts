import type { Lang } from '../../i18n/index.js';
import type { WebhookFormat } from '../../webhooks/index.js';
import type { EmailContent } from '../email/index.js';
import type { NoticeEvent, SourceFailingEvent } from '../model/index.js';
import {
  type AlertMessage,
  type AlertSection,
  confirmMessage,
  type Line,
  linker,
  wordsOf,
} from './message.js';
import { renderers, type WebhookRequest } from './renderers.js';

/**
 * The messages of the notices other subsystems send through the watch's channels
 * (docs/watch-engine.md, "Notices"), in the same message model as a watch's events, so every
 * renderer draws them: a reports inbox's failing source, and the confirmation of its address.
 */

/**
 * `reports.source_failing`: which address fails DMARC for which domain, how much of its mail,
 * who reported it (the reporters' names are their text, set apart as data), what to do, and the
 * inbox's dashboard.
 */
export function sourceFailingMessage(
  event: SourceFailingEvent,
  lang: Lang,
  unsubscribe?: string,
): AlertMessage {
  const { t, more } = wordsOf(lang);
  const { links, link } = linker();
  const { data } = event;
  const lines: Line[] = [
    [
      t('reports.notice.failing', {
        fail: data.fail,
        messages: data.messages,
        from: data.period.from,
        to: data.period.to,
      }),
    ],
    ...(data.reporters.length > 0
      ? [[`${t('reports.notice.reporters')} `, { data: data.reporters.join(', ') }]]
      : []),
  ];
  const page = link('page', data.view_url, t('reports.notice.page'));
  const footer: AlertSection | undefined =
    unsubscribe === undefined
      ? undefined
      : {
          lines: [
            [t('reports.notice.footer')],
            [link('unsubscribe', unsubscribe, t('email.unsubscribe'))],
          ],
        };
  return {
    kind: event.type,
    title: t('reports.notice.failingTitle', { ip: data.source_ip, domain: data.domain }),
    urgency: 'default',
    at: event.created_at,
    sections: [{ lines }],
    fields: [],
    action: { heading: t('chat.action'), lines: [[t('reports.notice.advice')]] },
    buttons: [{ label: t('reports.notice.page'), link: page.link }],
    ...(footer ? { footer } : {}),
    links,
    more,
  };
}

/**
 * The confirmation of a reports inbox's address: a watch's confirmation (its link, until when),
 * saying what the inbox will send.
 */
export function inboxConfirmMessage(input: {
  lang: Lang;
  domain: string;
  confirmUrl: string;
  expiresAt: string;
}): AlertMessage {
  const { t } = wordsOf(input.lang);
  const { domain } = input;
  const message = confirmMessage({ ...input, target: domain });
  return {
    ...message,
    title: t('reports.notice.confirmSubject', { domain }),
    sections: [
      { lines: [[t('reports.notice.confirmIntro', { domain })]] },
      ...message.sections.slice(1),
    ],
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
