import { describe, expect, it } from 'vitest';
import { webhookRequest } from '../../src/watch/alerts/index.js';
import type { ListingChange, WatchEvent } from '../../src/watch/index.js';
import { type ChatFormat, drawn } from '../support/chat-apps.js';
import {
  checkNtfy,
  discordMessageSchema,
  slackMessageSchema,
  telegramMessageSchema,
} from '../support/chat-schemas.js';
import { alertEvent, zenListing } from './alerts-events.js';

/**
 * Every chat message checked against its app's published schema and limits (docs/watches.md,
 * "Chat formats"), in English and Russian: an ordinary alert of each kind, and one far past every
 * limit (60 lists with long names and 300-character meanings, the most a third party's text is
 * kept), which is cut, whole lines at a time, with "and N more".
 */

const langs = ['en', 'ru'] as const;
const formats: readonly ChatFormat[] = ['slack', 'discord', 'telegram', 'ntfy'];
const zen = zenListing;
const event = (type: WatchEvent['type'], data: Partial<WatchEvent['data']> = {}) =>
  alertEvent(type, { verdict: 'fair', score: 70, ...data }, '2001:db8::1');

/** 60 lists, each with a long name, a 300-character meaning with every escaped character in it, a delisting page. */
const many: ListingChange[] = Array.from({ length: 60 }, (_, index) => ({
  zone: `list-${index}.very-long-blocklist-zone-name.example`,
  name: `A blocklist with a rather long name, number ${index} — «Длинное имя списка» & co`,
  code: '127.0.0.2, 127.0.0.3, 127.0.0.4',
  meaning: `${'<&>*_~`|@#[]():- '.repeat(16)}Ошибка ${'ж'.repeat(12)}`.slice(0, 300),
  delist_url: `https://delist.example/${index}?ip=2001:db8::1&reason=${'x'.repeat(120)}`,
}));

const events: [string, WatchEvent][] = [
  ['a listing', event('watch.listed', { added: [zen], listed_on: [zen] })],
  ['a delisting', event('watch.delisted', { removed: [zen] })],
  ['a test', event('watch.test', { listed_on: [zen] })],
  [
    'a mail setup’s change',
    event('watch.changed', {
      changes: [
        { what: 'mta_sts', subject: 'example.com', from: 'testing', to: 'enforce', detail: null },
      ],
      providers: { gmail: 'pass', yahoo: 'warn', microsoft: 'fail' },
    }),
  ],
  [
    '60 listings and 60 delistings',
    event('watch.listed', { added: many, removed: many, listed_on: many }),
  ],
  [
    '60 changes of a mail setup',
    event('watch.changed', {
      changes: many.map((listing, index) => ({
        what: 'dkim',
        subject: `selector-${index}`,
        from: 'found',
        to: 'revoked',
        detail: listing.meaning,
      })),
      providers: { gmail: 'fail', yahoo: 'fail', microsoft: 'fail' },
    }),
  ],
];

function request(format: ChatFormat, lang: (typeof langs)[number], alert: WatchEvent) {
  return webhookRequest({
    format,
    body: JSON.stringify(alert),
    watch: { lang },
    url: 'https://api.telegram.org/bot1:x/sendMessage?chat_id=-100123',
    state: undefined,
  });
}

describe.each(events)('%s', (what, alert) => {
  it.each(langs)('is a Slack Block Kit message within its limits (%s)', (lang) => {
    const body = JSON.parse(request('slack', lang, alert).body) as unknown;
    expect(slackMessageSchema.parse(body)).toEqual(body);
  });

  it.each(langs)('is a Discord webhook message within its embed limits (%s)', (lang) => {
    const body = JSON.parse(request('discord', lang, alert).body) as unknown;
    expect(discordMessageSchema.parse(body)).toEqual(body);
  });

  it.each(langs)(
    'is a Telegram sendMessage in its HTML style, within 4096 characters (%s)',
    (lang) => {
      const body = JSON.parse(request('telegram', lang, alert).body) as unknown;
      expect(telegramMessageSchema.parse(body)).toEqual(body);
    },
  );

  it.each(langs)('is an ntfy publish within its limits (%s)', (lang) => {
    expect(() => checkNtfy(request('ntfy', lang, alert))).not.toThrow();
  });

  if (what.startsWith('60')) {
    it.each(formats.flatMap((format) => langs.map((lang) => [format, lang] as const)))(
      'is cut with “and N more” in %s (%s), never mid-line',
      (format, lang) => {
        const shown = drawn(format, request(format, lang, alert));
        expect(shown.text).toMatch(lang === 'en' ? /and \d+ more/ : /и ещё \d+/);
        // Every list shown is shown whole: its line ends with its meaning's last characters.
        if (alert.type === 'watch.listed') {
          expect(shown.text).toContain(`${many[0]!.name} (${many[0]!.zone})`);
        }
      },
    );
  }
});
