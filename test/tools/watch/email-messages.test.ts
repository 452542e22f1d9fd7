import { describe, expect, it } from 'vitest';
import { renderEmail } from '../../../src/watch/alerts/index.js';
import type { WatchEvent } from '../../../src/watch/index.js';

/** A watch's e-mails as words (docs/watches.md, "E-mail"): both parts, both languages, escaped. */

const pageUrl = 'https://rep.example.org/tools/ip-reputation/watch/abc/share';
const unsubscribeUrl =
  'https://rep.example.org/tools/ip-reputation/watch/abc/email/unsubscribe?code=u';

const event: WatchEvent = {
  type: 'watch.listed',
  created_at: '2026-11-27T12:00:00.000Z',
  data: {
    watch: {
      id: 'abc',
      target: '192.0.2.7',
      kind: 'ip',
      page_url: pageUrl,
      badge_url: `${pageUrl}/badge.svg`,
    },
    added: [
      {
        zone: 'evil.example.net',
        name: 'A <b>list</b> & co',
        code: '127.0.0.2',
        meaning: '"spam" <script>alert(1)</script>',
        delist_url: 'https://evil.example.net/remove?ip=192.0.2.7&x=<y>',
      },
    ],
    removed: [],
    listed_on: [{ zone: 'evil.example.net', name: 'A <b>list</b> & co' }],
    verdict: 'poor',
    score: 40,
  },
};

describe('a watch’s e-mails', () => {
  it('alert in the watch’s words, with the unsubscribe link, every value escaped in HTML', () => {
    const mail = renderEmail({
      kind: 'alert',
      event,
      watch: { lang: 'en' },
      state: undefined,
      unsubscribeUrl,
    });
    // The subject names the list; the text part begins with it as its title line.
    expect(mail.subject).toBe('192.0.2.7 is newly listed on A <b>list</b> & co');
    expect(mail.text.split('\n')[0]).toBe(mail.subject);
    expect(mail.text).toContain('A <b>list</b> & co (evil.example.net)');
    expect(mail.text).toContain(unsubscribeUrl);
    expect(mail.text).toContain(`Watch page: ${pageUrl}`);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain(`<a href="${unsubscribeUrl}">`);
    expect(mail.html).toContain(`<a href="${pageUrl}">`);
    expect(mail.html).toContain(
      'href="https://evil.example.net/remove?ip=192.0.2.7&amp;x=&lt;y&gt;"',
    );
    // What to do now: the list's delisting page, by name.
    expect(mail.text).toContain('What to do now:');
    expect(mail.text).toContain(
      'A <b>list</b> & co: delisting page: https://evil.example.net/remove?ip=192.0.2.7&x=<y>',
    );
    expect(mail.html).toContain(
      '<a href="https://evil.example.net/remove?ip=192.0.2.7&amp;x=&lt;y&gt;">delisting page</a>',
    );
  });

  it.each([
    [
      'en',
      'Confirm e-mail alerts for 192.0.2.7',
      'The link works until November 28, 2026 at 12:00 PM UTC.',
    ],
    [
      'ru',
      'Подтвердите оповещения по почте о 192.0.2.7',
      'Ссылка действует до 28 ноября 2026 г. в 12:00 UTC.',
    ],
  ] as const)('confirmation in %s', (lang, subject, expiry) => {
    const confirmUrl = 'https://rep.example.org/tools/ip-reputation/watch/abc/email/confirm?code=c';
    const mail = renderEmail({
      kind: 'confirm',
      watch: { lang, target: '192.0.2.7' },
      confirmUrl,
      expiresAt: '2026-11-28T12:00:00.000Z',
    });
    expect(mail.subject).toBe(subject);
    expect(mail.text.split('\n')[0]).toBe(subject);
    expect(mail.text).toContain(confirmUrl);
    expect(mail.text).toContain(expiry);
    // The date says UTC itself: once, not "UTC UTC".
    expect(mail.text).not.toContain('UTC UTC');
    expect(mail.html).not.toContain('UTC UTC');
    expect(mail.html).toContain(`<a href="${confirmUrl}">`);
  });
});
