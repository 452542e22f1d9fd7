import { formatDate, type Lang, translator } from '../../i18n/index.js';
import type { NoticeEvent, WatchEvent } from '../model/index.js';

/**
 * One message per alert (docs/watch-engine.md, "Alerts and renderers"), in the watch's language,
 * whatever channel it goes to: what happened (the title), what changed and since when (the
 * sections), the state now (the fields), what to do now (the action), and its links by name. A
 * line is text and links; every piece of text is plain text, data to every renderer, which
 * escapes it for its channel and writes a link as the channel can (a name and its URL, an
 * anchor, a button) from the message's `links`: no renderer looks for a URL or markup in text,
 * so a list's words or a DNS record stay words on every channel.
 */

/** What a link opens. */
export type LinkRel = 'page' | 'lookup' | 'delist' | 'confirm' | 'unsubscribe';

export interface AlertLink {
  rel: LinkRel;
  url: string;
  /** Its name, in the message's language: what a channel shows where it can hide the URL. */
  label: string;
}

/**
 * A piece of a line: the message's own text; text a third party wrote (`data`: what a list says a
 * code means, what a mail server or a DNS record said), which a channel may set apart; or the
 * link at that place in the message's `links`.
 */
export type Span = string | { data: string } | { link: number };
export type Line = readonly Span[];

/** Lines shown together: an e-mail's paragraph, a chat's block; the heading bold where it can be. */
export interface AlertSection {
  heading?: string;
  lines: readonly Line[];
}

/** A fact of the state now, shown side by side where a channel can (Slack's and Discord's fields). */
export interface AlertField {
  name: string;
  value: Line;
}

/** A link a channel may show as a button (Slack's actions, ntfy's action buttons). */
export interface AlertButton {
  label: string;
  link: number;
}

export type AlertKind = WatchEvent['type'] | NoticeEvent['type'] | 'confirm';
export type Verdict = WatchEvent['data']['verdict'];

export interface AlertMessage {
  kind: AlertKind;
  /** What happened, in one line: the e-mail's subject, each chat's title. */
  title: string;
  /** The verdict now (an event's): a channel's colour. */
  verdict?: Verdict;
  /** How much it asks for attention: a listing more than a delisting, a test least. */
  urgency: 'low' | 'default' | 'high';
  /** When it happened (an event's `created_at`). */
  at?: string;
  /** What changed, and since when. */
  sections: readonly AlertSection[];
  /** The state now: the verdict, where it is listed or the providers' verdicts. */
  fields: readonly AlertField[];
  /** What to do now, when there is something to say. */
  action?: AlertSection;
  /** The links a channel may show as buttons, the watch page first. */
  buttons: readonly AlertButton[];
  /** An e-mail's last paragraph: why it came, and the link that stops it. */
  footer?: AlertSection;
  links: readonly AlertLink[];
  /** "and N more", for a renderer that cuts lines to fit its channel. */
  more: (n: number) => string;
}

/** Builds a message's links as its lines name them. */
export function linker() {
  const links: AlertLink[] = [];
  const link = (rel: LinkRel, url: string, label: string): { link: number } => {
    links.push({ rel, url, label });
    return { link: links.length - 1 };
  };
  return { links, link };
}

/** The words a message is made of: its language's catalog, its dates and its "and N more". */
export function wordsOf(lang: Lang) {
  const t = translator(lang);
  return {
    t,
    date: (iso: string) => formatDate(lang, iso),
    more: (n: number) => t('chat.more', { n }),
  };
}

/** At most `max` items, then "and N more" for the rest. */
export function clipped<T>(items: readonly T[], max: number, more: (n: number) => string) {
  return {
    shown: items.slice(0, max),
    rest: items.length > max ? more(items.length - max) : undefined,
  };
}

/** The confirmation of an address (docs/watches.md, "E-mail"): its link, and until when it works. */
export function confirmMessage(input: {
  lang: Lang;
  target: string;
  confirmUrl: string;
  /** When the link stops working. */
  expiresAt: string;
}): AlertMessage {
  const { t, date, more } = wordsOf(input.lang);
  const { links, link } = linker();
  const { target } = input;
  return {
    kind: 'confirm',
    title: t('email.confirm.subject', { target }),
    urgency: 'default',
    sections: [
      { lines: [[t('email.confirm.intro', { target })]] },
      {
        lines: [
          [t('email.confirm.action')],
          [link('confirm', input.confirmUrl, t('email.confirm.link'))],
        ],
      },
      {
        lines: [
          // formatDate says UTC itself: the catalog's text does not repeat it.
          [t('email.confirm.expires', { at: date(input.expiresAt) })],
          [t('email.confirm.ignore')],
        ],
      },
    ],
    fields: [],
    buttons: [],
    links,
    more,
  };
}
