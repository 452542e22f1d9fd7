import { describe, expect, it } from 'vitest';
import { noticeRequest, renderNoticeEmail } from '../../src/watch/alerts/index.js';
import type { SourceFailingEvent } from '../../src/watch/index.js';
import { type ChatFormat, drawn, mentionsWritten } from '../support/chat-apps.js';
import {
  checkNtfy,
  discordMessageSchema,
  slackMessageSchema,
  telegramMessageSchema,
} from '../support/chat-schemas.js';

/**
 * A reports inbox's `reports.source_failing` drawn by the watch's renderers (docs/reports.md,
 * "Reports meet watches"): in every chat format within its app's schema and limits, in English
 * and Russian; what it says (the address, the domain, the counts, the reporters, the dashboard's
 * link by name); the reporters' names, which a report's sender writes, shown as written with no
 * mention, markup or link; and as an e-mail with its one-click link.
 */

const langs = ['en', 'ru'] as const;
const chats: readonly ChatFormat[] = ['slack', 'discord', 'telegram', 'ntfy'];
const viewUrl = 'https://rep.example.org/reports/v1/view/vt_abc';
const hostile = '<!channel> @everyone <@123> [x](https://evil.example/) <b>bold</b> &amp;';
const hostilePieces = ['<!channel>', '@everyone', '<@123>', '[x](https://evil.example/)'];

function failing(reporters: string[]): SourceFailingEvent {
  return {
    type: 'reports.source_failing',
    created_at: '2026-03-02T10:15:00.000Z',
    data: {
      inbox_id: 'inbox1',
      domain: 'example.com',
      source_ip: '203.0.113.9',
      messages: 412,
      pass: 12,
      fail: 400,
      min_messages: 100,
      period: { from: '2026-02-01', to: '2026-03-02' },
      reporters,
      view_url: viewUrl,
    },
  };
}

const request = (format: ChatFormat, lang: 'en' | 'ru', event: SourceFailingEvent) =>
  noticeRequest({
    format,
    body: JSON.stringify(event),
    lang,
    url: 'https://api.telegram.org/bot1:x/sendMessage?chat_id=-100123',
  });

describe('reports.source_failing in the chat formats', () => {
  const event = failing(['google.com', 'Outlook.com']);

  it.each(langs)('is a Slack Block Kit message within its limits (%s)', (lang) => {
    const body = JSON.parse(request('slack', lang, event).body) as unknown;
    expect(slackMessageSchema.parse(body)).toEqual(body);
  });

  it.each(langs)('is a Discord webhook message within its embed limits (%s)', (lang) => {
    const body = JSON.parse(request('discord', lang, event).body) as unknown;
    expect(discordMessageSchema.parse(body)).toEqual(body);
  });

  it.each(langs)('is a Telegram sendMessage in its HTML style (%s)', (lang) => {
    const body = JSON.parse(request('telegram', lang, event).body) as unknown;
    expect(telegramMessageSchema.parse(body)).toEqual(body);
  });

  it.each(langs)('is an ntfy publish within its limits, tagged as a warning (%s)', (lang) => {
    const delivery = request('ntfy', lang, event);
    expect(() => checkNtfy(delivery)).not.toThrow();
    expect(delivery.headers.tags).toBe('warning');
    expect(delivery.headers.click).toBe(viewUrl);
  });

  it.each(chats)(
    'names the address, the domain, the counts and the reporters, and links the dashboard by name in %s',
    (format) => {
      const shown = drawn(format, request(format, 'en', event));
      expect(shown.title).toBe('203.0.113.9 fails DMARC for example.com');
      expect(shown.text).toContain('400 of its 412 messages failed DMARC');
      expect(shown.text).toContain('2026-02-01');
      expect(shown.text).toContain('google.com, Outlook.com');
      // Discord links its embed's title to the page, as it does a watch's.
      if (format === 'discord') expect(shown.links.map((link) => link.url)).toContain(viewUrl);
      else expect(shown.links).toContainEqual({ label: 'The reports', url: viewUrl });
    },
  );

  it('is sent as kept in the standard format', () => {
    const body = JSON.stringify(event);
    expect(
      noticeRequest({ format: 'standard', body, lang: 'en', url: 'https://x.example/' }),
    ).toEqual({ body, headers: {} });
  });
});

describe('a reporter’s name written to harm', () => {
  const event = failing([hostile]);

  it.each(chats.flatMap((format) => langs.map((lang) => [format, lang] as const)))(
    'is shown as written by %s (%s): no mention, no markup, no link but the dashboard',
    (format, lang) => {
      const delivery = request(format, lang, event);
      const shown = drawn(format, delivery);
      for (const piece of hostilePieces) expect(shown.text).toContain(piece);
      expect(shown.mentions).toEqual([]);
      expect(mentionsWritten(format, delivery)).toEqual([]);
      if (format !== 'ntfy') {
        for (const link of shown.links) expect(link.url).toBe(viewUrl);
      }
    },
  );

  it.each(langs)(
    'is text in an e-mail, whose anchors are the dashboard and the one-click link (%s)',
    (lang) => {
      const unsubscribe = 'https://rep.example.org/reports/v1/inbox1/email/unsubscribe?code=u';
      const mail = renderNoticeEmail({ kind: 'alert', event, lang, unsubscribeUrl: unsubscribe });
      expect(mail.subject).toContain('203.0.113.9');
      for (const piece of hostilePieces) expect(mail.text).toContain(piece);
      const anchors = [...mail.html.matchAll(/<a href="([^"]*)">/g)].map((match) =>
        match[1]!.replaceAll('&amp;', '&'),
      );
      expect(new Set(anchors)).toEqual(new Set([viewUrl, unsubscribe]));
      expect(mail.text).toContain(unsubscribe);
    },
  );
});
