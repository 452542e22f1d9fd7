import { describe, expect, it } from 'vitest';
import { chatText } from '../../../src/watch/alerts/index.js';
import type { MailChange, WatchEvent } from '../../../src/watch/index.js';

/**
 * A mail watch's `watch.changed` as chat text in each language (docs/watches.md, "Mail
 * watches"): every kind of change named with the catalogs' words, the providers' verdicts where a
 * listing watch says where it is listed, the mail score and the page.
 */

const changes: MailChange[] = [
  { what: 'requirement', subject: 'dkim', from: 'pass', to: 'fail', detail: 'no DKIM key' },
  { what: 'verdict', subject: 'gmail', from: 'pass', to: 'fail', detail: null },
  {
    what: 'certificate',
    subject: 'mx.example.com',
    from: 'valid',
    to: 'expiring',
    detail: '9 days left (not after 2026-12-06T00:00:00.000Z)',
  },
  { what: 'mta_sts', subject: 'example.com', from: 'testing', to: 'enforce', detail: null },
  { what: 'dkim', subject: 's1', from: 'found', to: 'revoked', detail: 'an empty p=' },
];

const event = (type: WatchEvent['type']): WatchEvent => ({
  type,
  created_at: '2026-11-27T12:00:00.000Z',
  data: {
    watch: {
      id: 'w1',
      target: 'example.com',
      kind: 'mail',
      page_url: 'https://rep.example.org/watch/v1/w1/share',
      badge_url: 'https://rep.example.org/watch/v1/w1/badge.svg',
    },
    added: [],
    removed: [],
    listed_on: [],
    ...(type === 'watch.changed' ? { changes } : {}),
    providers: { gmail: 'fail', yahoo: 'warn', microsoft: 'pass' },
    verdict: 'poor',
    score: 41,
  },
});

describe('a mail watch’s chat message', () => {
  it.each([
    [
      'en',
      'The mail setup of example.com changed',
      [
        'What changed:',
        '• DKIM key: pass → fail\n  no DKIM key',
        '• Gmail: met → not met',
        '• Certificate of mx.example.com: 14 days or more left → fewer than 14 days left\n  9 days left',
        '• MTA-STS: testing → enforce',
        '• DKIM selector s1: key found → key revoked\n  an empty p=',
        'Providers now: Gmail: not met, Yahoo: met with warnings, Microsoft: met',
        'Verdict: Poor (score 41/100)',
        'Watch page: https://rep.example.org/watch/v1/w1/share',
      ],
    ],
    [
      'ru',
      'Изменилась настройка почты example.com',
      [
        'Что изменилось:',
        '• Ключ DKIM: выполнено → не выполнено',
        '• Gmail: выполнены → не выполнены',
        '• Сертификат mx.example.com: осталось 14 дней или больше → осталось меньше 14 дней',
        '• MTA-STS: testing (проверка) → enforce (обязательно)',
        '• Селектор DKIM s1: ключ есть → ключ отозван',
        'Провайдеры сейчас: Gmail: не выполнены, Yahoo: выполнены с замечаниями, Microsoft: выполнены',
        'Страница наблюдения: https://rep.example.org/watch/v1/w1/share',
      ],
    ],
  ] as const)('names every change in %s', (lang, title, lines) => {
    const text = chatText(event('watch.changed'), lang, undefined);
    expect(text.title).toBe(title);
    for (const line of lines) expect(text.text).toContain(line);
    // A mail watch is listed nowhere: its message says nothing of lists.
    expect(text.text).not.toMatch(/Listed now|Сейчас (в списках|ни в одном)/);
  });

  it('sends its test message with the providers’ verdicts, in the watch’s language', () => {
    const text = chatText(event('watch.test'), 'ru', undefined);
    expect(text.title).toBe('Пробное сообщение наблюдения за example.com');
    expect(text.text).toContain('Провайдеры сейчас: Gmail: не выполнены');
    expect(text.text).not.toContain('Что изменилось');
  });
});
