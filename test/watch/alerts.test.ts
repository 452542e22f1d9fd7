import { describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n/index.js';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { verdictColours } from '../../src/share/card-theme.js';
import { russianMeanings } from '../../src/share/index.js';
import {
  type AlertMessage,
  chatText,
  discordColours,
  eventMessage,
  renderEmail,
  renderers,
  webhookRequest,
} from '../../src/watch/alerts/index.js';
import type { HistoryEntry, ListingChange, WatchEvent } from '../../src/watch/index.js';
import { webhookFormats } from '../../src/webhooks/index.js';
import { type ChatFormat, drawn, mentionsWritten } from '../support/chat-apps.js';
import { alertEvent, pageUrl, zenListing } from './alerts-events.js';

/**
 * One message per alert, drawn by one renderer per channel (docs/watch-engine.md, "Alerts and
 * renderers"; docs/watches.md, "Chat formats"): what changed, since when, what to do now and the
 * links by name; a list's or a server's words are data on every channel, never markup, a
 * mention or a link.
 */

const page = pageUrl;
const zen = zenListing;
const chats: readonly ChatFormat[] = ['slack', 'discord', 'telegram', 'ntfy'];
const langs = ['en', 'ru'] as const;

const barracuda: ListingChange = {
  zone: 'b.barracudacentral.org',
  name: 'Barracuda',
  code: '127.0.0.2',
  meaning: 'listed',
};

const event = (type: WatchEvent['type'], data: Partial<WatchEvent['data']> = {}) =>
  alertEvent(type, data);

/** An event's request to a chat app, in a language (Telegram's URL names the chat). */
const chatRequest = (format: ChatFormat, alert: WatchEvent, lang: 'en' | 'ru') =>
  webhookRequest({
    format,
    body: JSON.stringify(alert),
    watch: { lang },
    url: 'https://api.telegram.org/bot1:x/sendMessage?chat_id=-100123',
    state: undefined,
  });

/** An event's e-mail, in a language. */
const alertMail = (alert: WatchEvent, lang: 'en' | 'ru') =>
  renderEmail({
    kind: 'alert',
    event: alert,
    watch: { lang },
    state: undefined,
    unsubscribeUrl: 'https://rep.example.org/watch/v1/abc/email/unsubscribe?code=u',
  });

const entry = (
  at: string,
  added: ListingChange[],
  removed: ListingChange[] = [],
): HistoryEntry => ({
  at,
  added,
  removed,
  verdict: 'fair',
  score: 70,
});

/** The message as plain text: every line of every part, links as their labels. */
function words(message: AlertMessage): string {
  const line = (spans: AlertMessage['sections'][number]['lines'][number]) =>
    spans
      .map((span) =>
        typeof span === 'string'
          ? span
          : 'data' in span
            ? span.data
            : message.links[span.link]!.label,
      )
      .join('');
  return [
    message.title,
    ...message.sections.flatMap((section) => [section.heading ?? '', ...section.lines.map(line)]),
    ...message.fields.map((field) => `${field.name}: ${line(field.value)}`),
    ...(message.action ? [message.action.heading ?? '', ...message.action.lines.map(line)] : []),
  ].join('\n');
}

describe('an alert’s message', () => {
  it('names the list in its title, says since when, and gives the delisting page as what to do now', () => {
    const message = eventMessage(event('watch.listed', { added: [zen], listed_on: [zen] }), 'en', {
      status: undefined,
    });
    expect(message.title).toBe('192.0.2.7 is newly listed on Spamhaus ZEN');
    const text = words(message);
    expect(text).toContain(
      '• Spamhaus ZEN (zen.spamhaus.org) · 127.0.0.2 · SBL: direct spam source',
    );
    expect(text).toContain('listed since November 27, 2026 at 12:00 PM UTC');
    expect(text).toContain('What to do now:');
    expect(text).toContain('• Spamhaus ZEN: delisting page');
    expect(message.links.map((link) => link.rel)).toEqual(['page', 'delist']);
    expect(message.buttons.map((button) => button.label)).toEqual([
      'Watch page',
      'Delisting: Spamhaus ZEN',
    ]);
    expect(message.urgency).toBe('high');
  });

  it('says how long a delisted listing lasted, from the history, and nothing it said when listed', () => {
    const delisted = event('watch.delisted', { removed: [zen] });
    const history = [
      entry(delisted.created_at, [], [zen]),
      entry('2026-11-24T09:30:00.000Z', [zen]),
    ];
    for (const [lang, title, lasted] of [
      [
        'en',
        '192.0.2.7 was delisted from Spamhaus ZEN',
        'was listed for 3 days 2 hours, since November 24, 2026 at 9:30 AM UTC',
      ],
      [
        'ru',
        '192.0.2.7: исключён из Spamhaus ZEN',
        'был в списке 3 дня 2 часа, с 24 ноября 2026 г. в 09:30 UTC',
      ],
    ] as const) {
      const message = eventMessage(delisted, lang, { status: undefined, history });
      expect(message.title).toBe(title);
      const text = words(message);
      expect(text).toContain(lasted);
      // Under "Delisted from:" no "why listed", no code and no meaning: they would read as a listing.
      expect(text).not.toMatch(/why listed|почему внесён|127\.0\.0\.2|SBL/);
      expect(message.links.map((link) => link.rel)).toEqual(['page']);
    }
  });

  it('takes the first check as the start of a listing no entry added, while the history is whole', () => {
    const delisted = event('watch.delisted', { removed: [zen] });
    const context = { status: undefined, history: [entry(delisted.created_at, [], [zen])] };
    expect(
      words(eventMessage(delisted, 'en', { ...context, firstCheck: '2026-11-27T11:00:00.000Z' })),
    ).toContain('was listed for 1 hour, since November 27, 2026 at 11:00 AM UTC');
    // Without the first check (a history past its cap), the watch does not know: it says nothing.
    expect(words(eventMessage(delisted, 'en', context))).not.toContain('was listed for');
  });

  it('says there is nothing to do when the target is on no list, and where to look when it still is', () => {
    const clean = eventMessage(event('watch.delisted', { removed: [zen] }), 'en', {
      status: undefined,
    });
    expect(words(clean)).toContain('Nothing to do: 192.0.2.7 is on no list now.');
    const still = eventMessage(
      event('watch.delisted', { removed: [zen], listed_on: [barracuda] }),
      'ru',
      { status: undefined },
    );
    expect(words(still)).toContain('Остаются другие списки');
    expect(clean.urgency).toBe('default');
  });

  it('names two lists in its title and ten in its sections, then "and N more"', () => {
    const lists = Array.from({ length: 14 }, (_, index) => ({
      ...zen,
      zone: `list${index}.example`,
      name: `List ${index}`,
    }));
    const message = eventMessage(event('watch.listed', { added: lists, listed_on: lists }), 'en', {
      status: undefined,
    });
    expect(message.title).toBe('192.0.2.7 is newly listed on List 0, List 1 and 12 more');
    const text = words(message);
    expect(text).toContain('List 9 (list9.example)');
    expect(text).not.toContain('List 10 (list10.example)');
    expect(text).toContain('and 4 more');
    expect(message.fields[1]!.value).toEqual([
      'List 0, List 1, List 2, List 3, List 4, List 5, List 6, List 7, List 8, List 9 and 4 more',
    ]);
    // The watch page and four delisting pages as buttons.
    expect(message.buttons).toHaveLength(5);
  });
});

describe('the renderers', () => {
  it('hold one entry for every webhook format, and the e-mail’s two parts', () => {
    expect(Object.keys(renderers).sort()).toEqual(
      [...webhookFormats, 'emailText', 'emailHtml'].sort(),
    );
  });

  it('send the standard event byte for byte: the public event schema', () => {
    const listed = event('watch.listed', { added: [zen], listed_on: [zen] });
    const body = JSON.stringify(listed);
    expect(
      webhookRequest({
        format: 'standard',
        body,
        watch: { lang: 'ru' },
        url: page,
        state: undefined,
      }),
    ).toEqual({ body, headers: {} });
  });

  it.each(langs)('give each app its own layout, in %s', (lang) => {
    const listed = event('watch.listed', { added: [zen], listed_on: [zen] });
    const request = (format: ChatFormat) => chatRequest(format, listed, lang);
    const slack = JSON.parse(request('slack').body) as { blocks: { type: string }[] };
    expect(slack.blocks.map((block) => block.type)).toEqual([
      'header',
      'section',
      'section',
      'section',
      'actions',
    ]);
    const discord = JSON.parse(request('discord').body) as {
      embeds: { color: number; url: string; fields: { name: string }[] }[];
    };
    expect(discord.embeds[0]).toMatchObject({ color: 0xdc2626, url: page });
    expect(discord.embeds[0]!.fields).toHaveLength(3);
    expect(JSON.parse(request('telegram').body)).toMatchObject({
      parse_mode: 'HTML',
      chat_id: '-100123',
      link_preview_options: { is_disabled: true },
    });
    const ntfy = request('ntfy');
    expect(ntfy.headers).toMatchObject({ priority: '4', tags: 'rotating_light', click: page });
    for (const format of chats) {
      const shown = drawn(format, request(format));
      // The watch page by name; Discord's is the embed's title, which links to it.
      expect(shown.links).toContainEqual({
        label:
          format === 'discord' ? shown.title : lang === 'en' ? 'Watch page' : 'Страница наблюдения',
        url: page,
      });
      expect(shown.links.map((link) => link.url)).toContain('https://check.spamhaus.org/');
    }
  });

  it('colour Discord’s embed by the verdict as the cards do', () => {
    for (const [verdict, colour] of Object.entries(verdictColours)) {
      expect(discordColours[verdict as keyof typeof discordColours]).toBe(
        Number.parseInt(colour.slice(1), 16),
      );
    }
  });

  it('give ntfy a priority by the change', () => {
    const priority = (message: WatchEvent) =>
      webhookRequest({
        format: 'ntfy',
        body: JSON.stringify(message),
        watch: { lang: 'en' },
        url: 'https://ntfy.sh/topic',
        state: undefined,
      }).headers.priority;
    expect(priority(event('watch.listed', { added: [zen] }))).toBe('4');
    expect(priority(event('watch.delisted', { removed: [zen] }))).toBe('3');
    expect(priority(event('watch.test'))).toBe('2');
    const providers = { gmail: 'fail', yahoo: 'pass', microsoft: 'pass' } as const;
    expect(priority(event('watch.changed', { changes: [], providers }))).toBe('4');
  });
});

/** Third-party text as a hostile list or mail server might write it. */
const hostile =
  '<!channel> @everyone <@123> [x](https://evil.example/) <b>bold</b> &amp; <a href="https://evil.example/">y</a>';
const hostilePieces = [
  '<!channel>',
  '@everyone',
  '<@123>',
  '[x](https://evil.example/)',
  '<b>bold</b>',
  '&amp;',
];

/** A list's and a mail server's text, as an event carries them. */
const thirdPartyEvents = (text: string): [string, WatchEvent][] => [
  [
    'a list’s meaning',
    event('watch.listed', { added: [{ ...zen, meaning: text }], listed_on: [zen] }),
  ],
  [
    'a mail server’s words',
    event('watch.changed', {
      changes: [
        { what: 'mta_sts', subject: 'example.com', from: 'testing', to: 'enforce', detail: text },
      ],
      providers: { gmail: 'pass', yahoo: 'pass', microsoft: 'pass' },
    }),
  ],
];
const hostileEvents = thirdPartyEvents(hostile);

describe.each(hostileEvents)('third-party text in %s', (_what, hostileEvent) => {
  const ours = (lang: 'en' | 'ru') =>
    eventMessage(hostileEvent, lang, { status: undefined }).links.map((link) => link.url);

  it.each(chats.flatMap((format) => langs.map((lang) => [format, lang] as const)))(
    'is shown as written by %s (%s): no mention, no markup, no link',
    (format, lang) => {
      const request = chatRequest(format, hostileEvent, lang);
      const shown = drawn(format, request);
      for (const piece of hostilePieces) expect(shown.text).toContain(piece);
      expect(shown.mentions).toEqual([]);
      // ntfy's apps make links of the URLs in its plain text themselves (docs/watches.md).
      if (format !== 'ntfy') {
        for (const link of shown.links) expect(ours(lang)).toContain(link.url);
      }
      // Escaped, not only silenced: Discord would not even draw a mention.
      expect(mentionsWritten(format, request)).toEqual([]);
      if (format === 'discord') {
        expect(JSON.parse(request.body)).toMatchObject({ allowed_mentions: { parse: [] } });
      }
    },
  );

  it.each(langs)(
    'is text in both parts of an e-mail (%s), its only anchors the message’s links',
    (lang) => {
      const mail = alertMail(hostileEvent, lang);
      for (const piece of hostilePieces) expect(mail.text).toContain(piece);
      const anchors = [...mail.html.matchAll(/<a href="([^"]*)">/g)].map((match) =>
        match[1]!.replaceAll('&amp;', '&'),
      );
      expect(anchors.length).toBeGreaterThan(0);
      for (const href of anchors) expect(href).not.toContain('evil');
      expect(mail.html).not.toMatch(/<b>|<a href="https:\/\/evil/);
      const shown = mail.html
        .replace(/<[^>]+>/g, '')
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&quot;', '"')
        .replaceAll('&#39;', "'")
        .replaceAll('&amp;', '&');
      for (const piece of hostilePieces) expect(shown).toContain(piece);
    },
  );
});

/**
 * Words that would turn a line around or hide in it (UAX #9 §2): a right-to-left override that
 * makes `moc.knab` read `bank.com`, an isolate, a right-to-left mark, a zero-width space, a bell
 * and a line separator. Each reaches every channel as U+FFFD, visibly not what it was, even in an
 * event kept before third-party text was cleaned where it enters.
 */
const bidi = 'pay \u202emoc.knab\u2066x\u2069\u200f\u200b\u0007 \u2028end';
const bidiShown = 'pay \ufffdmoc.knab\ufffdx\ufffd\ufffd\ufffd\ufffd \ufffdend';
const invisible = ['\u202e', '\u2066', '\u2069', '\u200f', '\u200b', '\u0007', '\u2028'];

const bidiEvents = thirdPartyEvents(bidi);

describe.each(bidiEvents)('a right-to-left override in %s', (_what, bidiEvent) => {
  it.each(chats.flatMap((format) => langs.map((lang) => [format, lang] as const)))(
    'is replaced by U+FFFD in %s (%s), as is every invisible character with it',
    (format, lang) => {
      const request = chatRequest(format, bidiEvent, lang);
      const shown = drawn(format, request).text;
      expect(shown).toContain(bidiShown);
      for (const character of invisible) expect(shown).not.toContain(character);
    },
  );

  it.each(langs)('is replaced by U+FFFD in both parts of an e-mail (%s)', (lang) => {
    const mail = alertMail(bidiEvent, lang);
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain(bidiShown);
      for (const character of invisible) expect(part).not.toContain(character);
    }
  });
});

describe('an alert in Russian', () => {
  it('says what a list’s code means in the zone list’s Russian, in chat and in e-mail', async () => {
    const meanings = russianMeanings(await loadZoneList());
    const listed = event('watch.listed', {
      added: [{ ...zen, meaning: 'SBL: direct spam source, spam operation or spam service' }],
      listed_on: [zen],
    });
    const russian = 'SBL: прямой источник спама, спам-операция или спам-сервис';
    expect(chatText(listed, 'ru', undefined, meanings).text).toContain(russian);
    const email = renderEmail({
      kind: 'alert',
      event: listed,
      watch: { lang: 'ru' },
      state: undefined,
      unsubscribeUrl: 'https://rep.example.org/watch/v1/abc/email/unsubscribe?code=u',
      meanings,
    });
    expect(email.text).toContain(russian);
    expect(email.text).not.toContain('direct spam source');
    // In English, the list's own words.
    expect(chatText(listed, 'en', undefined, meanings).text).toContain('direct spam source');
  });

  it('says what to do about a mail rule that fails in Russian, not the check’s English words', () => {
    const changed = alertEvent(
      'watch.changed',
      {
        changes: [
          {
            what: 'requirement',
            subject: 'inbound_tls',
            from: 'pass',
            to: 'fail',
            detail: 'no STARTTLS on mx2.example.org: mail to it travels unencrypted (RFC 3207)',
          },
        ],
        providers: { gmail: 'pass', yahoo: 'pass', microsoft: 'pass' },
      },
      'example.org',
    );
    const text = chatText(changed, 'ru', undefined).text;
    expect(text).toContain(translator('ru')('mail.advice.inbound_tls_fail'));
    expect(text).toContain(translator('ru')('mail.rule.inbound_tls'));
    expect(text).not.toContain('travels unencrypted');
    expect(chatText(changed, 'en', undefined).text).toContain('travels unencrypted');
  });
});
