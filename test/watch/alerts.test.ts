import { describe, expect, it } from 'vitest';
import { eventMessage, renderEmail, renderers } from '../../src/watch/alerts/index.js';
import type { WatchEvent } from '../../src/watch/index.js';
import { webhookFormats } from '../../src/webhooks/index.js';

/**
 * One message per alert, drawn by one renderer per channel (docs/watch-engine.md, "Alerts and
 * renderers"): the links a renderer writes are the message's own, never URLs found in text, so
 * a list's words stay words on every channel.
 */

const page = 'https://rep.example.org/watch/v1/abc/share';
const event: WatchEvent = {
  type: 'watch.listed',
  created_at: '2026-11-27T12:00:00.000Z',
  data: {
    watch: { id: 'abc', target: '192.0.2.7', kind: 'ip', page_url: page, badge_url: `${page}.svg` },
    added: [
      {
        zone: 'evil.example.net',
        name: 'Evil list',
        code: '127.0.0.2',
        // A list's own TXT words, with a URL in them: text, not a link.
        meaning: 'see https://evil.example.net/why?ip=192.0.2.7&x=1 for details',
        delist_url: 'https://evil.example.net/remove',
      },
    ],
    removed: [],
    listed_on: [{ zone: 'evil.example.net', name: 'Evil list' }],
    verdict: 'poor',
    score: 40,
  },
};
const unsubscribeUrl = 'https://rep.example.org/watch/v1/abc/email/unsubscribe?code=u';

describe('an alert’s message', () => {
  it('names each link by what it opens: the delisting form, the page, the unsubscribe link', () => {
    const message = eventMessage(event, 'en', undefined, unsubscribeUrl);
    expect(message.links).toEqual([
      { rel: 'delist', url: 'https://evil.example.net/remove' },
      { rel: 'page', url: page },
      { rel: 'unsubscribe', url: unsubscribeUrl },
    ]);
  });

  it('is an e-mail whose anchors are the message’s links and no others', () => {
    const { html, text } = renderEmail({
      kind: 'alert',
      event,
      watch: { lang: 'en' },
      status: undefined,
      unsubscribeUrl,
    });
    const anchors = [...html.matchAll(/<a href="([^"]*)">/g)].map((match) => match[1]);
    expect(anchors).toEqual([
      'https://evil.example.net/remove',
      page,
      unsubscribeUrl.replaceAll('&', '&amp;'),
    ]);
    expect(html).toContain('see https://evil.example.net/why?ip=192.0.2.7&amp;x=1 for details');
    expect(text).toContain('see https://evil.example.net/why?ip=192.0.2.7&x=1 for details');
  });
});

describe('the renderers', () => {
  it('hold one entry for every webhook format, and the e-mail’s two parts', () => {
    expect(Object.keys(renderers).sort()).toEqual(
      [...webhookFormats, 'emailText', 'emailHtml'].sort(),
    );
  });

  it('send the standard event byte for byte, and give ntfy the message’s page as its Click', () => {
    const body = JSON.stringify(event);
    const message = () => eventMessage(event, 'en', undefined);
    const url = 'https://ntfy.sh/topic';
    expect(renderers.standard({ body, event, message, url })).toEqual({ body, headers: {} });
    expect(renderers.ntfy({ body, event, message, url }).headers).toMatchObject({
      click: page,
      tags: 'rotating_light',
    });
  });
});
