import type { ListingChange, WatchEvent } from '../../src/watch/index.js';

/** The events the alert tests draw: one watch's, with the data each test gives. */

export const pageUrl = 'https://rep.example.org/watch/v1/abc/share';

export const zenListing: ListingChange = {
  zone: 'zen.spamhaus.org',
  name: 'Spamhaus ZEN',
  code: '127.0.0.2',
  meaning: 'SBL: direct spam source',
  delist_url: 'https://check.spamhaus.org/',
};

/** An event of 192.0.2.7's watch at 12:00 UTC on 27 November 2026, poor (40) unless `data` says. */
export function alertEvent(
  type: WatchEvent['type'],
  data: Partial<WatchEvent['data']> = {},
  target = '192.0.2.7',
): WatchEvent {
  return {
    type,
    created_at: '2026-11-27T12:00:00.000Z',
    data: {
      watch: { id: 'abc', target, kind: 'ip', page_url: pageUrl, badge_url: `${pageUrl}.svg` },
      added: [],
      removed: [],
      listed_on: [],
      verdict: 'poor',
      score: 40,
      ...data,
    },
  };
}
