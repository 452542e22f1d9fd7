import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import { formatDate } from '../../../src/i18n/index.js';
import { loadZoneList } from '../../../src/reputation/lists/zones.js';
import type { HistoryEntry, WatchState } from '../../../src/watch/index.js';
import { parseCsv } from '../../support/csv.js';
import type { PublicWatch } from '../../support/responses.js';
import {
  basePath,
  expectError,
  startTestService,
  type TestService,
} from '../../support/service.js';
import { createWatch } from './support.js';

/**
 * GET /watch/v1/{id}/history.csv and history.json over real HTTP (docs/watches.md, "History
 * export"): a watch re-checked by the service's own timer while the fixture world lists and then
 * delists its address, its history read back as RFC 4180 CSV (by a reader written apart from the
 * writer) and as JSON; a history holding what DNS and third parties could write (commas, quotes,
 * line breaks, formulas) read back cell for cell; 404 as the view answers it.
 */

const target = '8.8.100.9';
const zoneList = await loadZoneList();
const clean = dnsblWorld(zoneList, {});
const listed = dnsblWorld(zoneList, { [target]: { 'zen.spamhaus.org': ['127.0.0.2'] } });
const header =
  'time,event,zone,list,code,meaning,verdict,score,address,target,time_utc,listed_for,listed_for_s';
/** How a spreadsheet reads a cell as a date and time: `YYYY-MM-DD HH:MM:SS`. */
const spreadsheetDate = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    env: { WATCH_MIN_INTERVAL_S: '1', WATCH_PER_CALLER: '50', WATCH_PER_NETWORK: '50' },
  });
});
afterAll(() => service.close());

async function view(id: string): Promise<PublicWatch> {
  return (await (await service.get(`/watch/v1/${id}`)).json()) as PublicWatch;
}

/** Waits for the service's timer to have recorded `length` changes of the watch. */
async function historyOf(id: string, length: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const { history } = await view(id);
      if (history.length !== length) throw new Error(`${history.length} changes so far`);
    },
    { timeout: 20_000, interval: 200 },
  );
}

describe('a watch whose address is listed, then delisted', () => {
  let id: string;
  beforeAll(async () => {
    await service.setZones(clean);
    ({ id } = await createWatch(service, { target, interval_s: 1, confirmations: 1 }));
    await service.setZones(listed);
    await historyOf(id, 1);
    await service.setZones(clean);
    await historyOf(id, 2);
  }, 60_000);

  it('answers the changes as RFC 4180 CSV, newest first, with a header row', async () => {
    const response = await service.get(`/watch/v1/${id}/history.csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    const { history, checked_at } = await view(id);
    // The target and the date of the last check.
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="${target}-${checked_at!.slice(0, 10)}.csv"`,
    );
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const text = await response.text();
    // Every line ends in CRLF, and there is no bare LF.
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    const [columns, ...rows] = parseCsv(text);
    expect(columns!.join(',')).toBe(header);
    const lasted = Date.parse(history[0]!.at) - Date.parse(history[1]!.at);
    const hms = (ms: number) => {
      const seconds = Math.floor(ms / 1000);
      const two = (n: number) => String(n).padStart(2, '0');
      return `${Math.floor(seconds / 3600)}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
    };
    expect(rows).toEqual([
      [
        history[0]!.at,
        'delisted',
        'zen.spamhaus.org',
        'Spamhaus ZEN',
        '127.0.0.2',
        expect.stringContaining('SBL'),
        history[0]!.verdict,
        String(history[0]!.score),
        '',
        target,
        expect.stringMatching(spreadsheetDate),
        // The listing lasted from the check that listed it to the one that delisted it.
        hms(lasted),
        String(Math.floor(lasted / 1000)),
      ],
      [
        history[1]!.at,
        'listed',
        'zen.spamhaus.org',
        'Spamhaus ZEN',
        '127.0.0.2',
        expect.stringContaining('SBL'),
        history[1]!.verdict,
        String(history[1]!.score),
        '',
        target,
        expect.stringMatching(spreadsheetDate),
        '',
        '',
      ],
    ]);
    // The date column is the ISO time, in UTC, as a spreadsheet reads a date.
    for (const row of rows) {
      const [, year, month, day, hour, minute, second] = spreadsheetDate.exec(row[10]!)!;
      expect(Date.UTC(+year!, +month! - 1, +day!, +hour!, +minute!, +second!)).toBe(
        Math.floor(Date.parse(row[0]!) / 1000) * 1000,
      );
    }
    // The meaning holds a comma: quoted, and read back whole.
    expect(text).toContain('"SBL: direct spam source, spam operation or spam service"');
  });

  it('answers the same entries as JSON', async () => {
    const response = await service.get(`/watch/v1/${id}/history.json`);
    expect(response.status).toBe(200);
    const watch = await view(id);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="${target}-${watch.checked_at!.slice(0, 10)}.json"`,
    );
    const body = (await response.json()) as { history: HistoryEntry[] };
    expect(body).toEqual({
      id,
      target,
      kind: 'ip',
      created_at: watch.created_at,
      history: watch.history,
    });
    expect(body.history.map((entry) => [entry.added.length, entry.removed.length])).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('draws the listings over time on its page: one dot a change, no script, no inline style', async () => {
    const page = await (await service.get(`/watch/v1/${id}/share?lang=en`)).text();
    const chart = /<figure class="timeline-chart">[\s\S]*?<\/figure>/.exec(page)?.[0] ?? '';
    expect(chart).toContain('viewBox="0 0 360 150"');
    expect(chart).toContain('width="100%"');
    expect(chart).toContain('<title id="timeline-chart-title">Listings over time</title>');
    // Drawn twice, the phone's and the wide one, each with its dots.
    expect(chart).toContain('viewBox="0 0 720 170"');
    expect(chart.match(/<circle\s+class="change"/g)).toHaveLength(4);
    // Up one list, then down again: a step line ending where it began.
    const line = /<path class="line" d="([^"]+)"/.exec(chart)![1]!;
    expect(line.match(/V/g)).toHaveLength(2);
    expect(chart).toContain('2 changes; most listings at once: 1; now: 0.');
    expect(chart).not.toMatch(/style=|<script/);
    expect(page).toContain('Live: re-checked every second.');
    expect(page).toContain(`href="${basePath}/watch/v1/${id}/history.csv"`);
    expect(page).toContain(`href="${basePath}/watch/v1/${id}/history.json"`);
  });

  it('draws it in Russian on the Russian page', async () => {
    const page = await (await service.get(`/watch/v1/${id}/share?lang=ru`)).text();
    expect(page).toContain('Попадания в списки со временем');
    expect(page).toContain('2 изменения; больше всего попаданий сразу: 1; сейчас: 0.');
    expect(page).toContain('Вживую: проверяется каждую секунду.');
    expect(page).toContain('Скачать историю:');
  });

  it('answers 304 to its ETag, and a new ETag once the history changes', async () => {
    const first = await service.get(`/watch/v1/${id}/history.csv`);
    const etag = first.headers.get('etag')!;
    const again = await service.get(`/watch/v1/${id}/history.csv`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    await service.setZones(listed);
    await historyOf(id, 3);
    const changed = await service.get(`/watch/v1/${id}/history.csv`, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(parseCsv(await changed.text())).toHaveLength(4);
    // Listed again: since the re-check that recorded it, not the first listing's time.
    const watch = await view(id);
    expect(watch.status?.listed_on).toEqual([
      { zone: 'zen.spamhaus.org', name: 'Spamhaus ZEN', since: watch.history[0]!.at },
    ]);
    await service.setZones(clean);
  }, 30_000);
});

describe('listed since', () => {
  it('is the first check for a listing the watch began with, and stays while it lasts', async () => {
    const other = '8.8.100.12';
    await service.setZones(
      dnsblWorld(zoneList, { [other]: { 'zen.spamhaus.org': ['127.0.0.2'] } }),
    );
    try {
      const watch = await createWatch(service, { target: other, interval_s: 1 });
      expect(watch.status?.listed_on).toEqual([
        { zone: 'zen.spamhaus.org', name: 'Spamhaus ZEN', since: watch.checked_at },
      ]);
      const page = await (await service.get(`/watch/v1/${watch.id}/share?lang=en`)).text();
      expect(page).toContain(`listed since <time datetime="${watch.checked_at}">`);
      const russian = await (await service.get(`/watch/v1/${watch.id}/share?lang=ru`)).text();
      expect(russian).toContain(`в списке с <time datetime="${watch.checked_at}">`);
      // Re-checks that hear it again keep the time.
      await vi.waitFor(
        async () => {
          const now = await view(watch.id);
          if (now.checked_at === watch.checked_at) throw new Error('not re-checked yet');
          expect(now.status?.listed_on[0]?.since).toBe(watch.checked_at);
        },
        { timeout: 10_000, interval: 200 },
      );
    } finally {
      await service.setZones(clean);
    }
  });
});

describe('listed since, in a watch stored before it was kept', () => {
  it('shows nothing for a listing whose start the watch does not know, and keeps not knowing', async () => {
    const other = '8.8.100.15';
    await service.setZones(
      dnsblWorld(zoneList, { [other]: { 'zen.spamhaus.org': ['127.0.0.2'] } }),
    );
    try {
      // An hour's interval: no re-check runs while the test rewrites the state.
      const watch = await createWatch(service, { target: other, interval_s: 3600 });
      // The state as it was stored before `since`: the listing without one.
      const key = `watch-state:${watch.id}`;
      const state = JSON.parse((await service.store.get(key))!) as WatchState;
      const older = {
        ...state,
        facts: state.facts.map((fact) => {
          if (fact.what !== 'list' || fact.subject !== 'zen.spamhaus.org') return fact;
          const { since: _, ...listing } = fact;
          return listing;
        }),
      };
      await service.store.set(key, JSON.stringify(older), 3_600_000);
      // An hour on, the watch is due: its timer re-checks it.
      service.setNow(new Date(Date.parse(watch.checked_at!) + 3_660_000));
      await vi.waitFor(
        async () => {
          const now = await view(watch.id);
          if (now.checked_at === watch.checked_at) throw new Error('not re-checked yet');
          expect(now.status?.listed_on).toEqual([
            { zone: 'zen.spamhaus.org', name: 'Spamhaus ZEN' },
          ]);
        },
        { timeout: 10_000, interval: 200 },
      );
      const page = await (await service.get(`/watch/v1/${watch.id}/share?lang=en`)).text();
      expect(page).not.toContain('listed since');
    } finally {
      service.setNow(new Date());
      await service.setZones(clean);
    }
  });
});

describe('listed since, for a domain’s sender address', () => {
  it('says since when each listed sender address is on its list, on the page and in the view', async () => {
    const domain = 'since-fixture.net';
    const sender = '8.8.100.14';
    await service.setZones([
      ...dnsblWorld(zoneList, { [sender]: { 'zen.spamhaus.org': ['127.0.0.2'] } }),
      { origin: domain, records: { [domain]: { A: [sender], TXT: ['v=spf1 a -all'] } } },
    ]);
    try {
      const watch = await createWatch(service, { target: domain, kind: 'domain' });
      expect(watch.status?.listed_on).toContainEqual({
        zone: 'zen.spamhaus.org',
        name: 'Spamhaus ZEN',
        address: sender,
        since: watch.checked_at,
      });
      const page = await (await service.get(`/watch/v1/${watch.id}/share?lang=en`)).text();
      const sinceLine = /<ul class="sender-since">\s*<li>([\s\S]*?)<\/li>/.exec(page)?.[1];
      expect(sinceLine?.replace(/\s+/g, ' ').trim()).toBe(
        `${sender} on Spamhaus ZEN: listed since <time datetime="${watch.checked_at}">${formatDate('en', watch.checked_at!)}</time>`,
      );
    } finally {
      await service.setZones(clean);
    }
  });
});

describe('a history holding what DNS and third parties may write', () => {
  const awkward: HistoryEntry = {
    at: '2026-11-02T09:41:00.000Z',
    added: [
      {
        zone: 'odd.example',
        name: 'List "Odd", Inc.',
        code: '127.0.0.2, 127.0.0.3',
        meaning: 'line one\r\nline two, with "quotes"',
        address: '192.0.2.7',
      },
      { zone: 'formula.example', name: '=HYPERLINK("http://x")', code: '+1', meaning: '@SUM(A1)' },
      { zone: 'minus.example', name: '-2+3', code: '\t=1', meaning: 'plain' },
    ],
    removed: [],
    verdict: 'poor',
    score: 40,
  };
  let id: string;
  beforeAll(async () => {
    ({ id } = await createWatch(service, { target: '8.8.100.10' }));
    const key = `watch-state:${id}`;
    const state = JSON.parse((await service.store.get(key))!) as WatchState;
    await service.store.set(key, JSON.stringify({ ...state, history: [awkward] }), 3_600_000);
  });

  it('quotes commas, quotes and line breaks, and reads back cell for cell', async () => {
    const rows = parseCsv(await (await service.get(`/watch/v1/${id}/history.csv`)).text());
    expect(rows[1]).toEqual([
      awkward.at,
      'listed',
      'odd.example',
      'List "Odd", Inc.',
      '127.0.0.2, 127.0.0.3',
      'line one\r\nline two, with "quotes"',
      'poor',
      '40',
      '192.0.2.7',
      '8.8.100.10',
      '2026-11-02 09:41:00',
      '',
      '',
    ]);
  });

  it('puts a quote before a cell a spreadsheet would read as a formula', async () => {
    const rows = parseCsv(await (await service.get(`/watch/v1/${id}/history.csv`)).text());
    expect(rows[2]!.slice(2, 6)).toEqual([
      'formula.example',
      `'=HYPERLINK("http://x")`,
      `'+1`,
      `'@SUM(A1)`,
    ]);
    expect(rows[3]!.slice(2, 6)).toEqual(['minus.example', `'-2+3`, `'\t=1`, 'plain']);
    // The score is a number, written as one.
    expect(rows[2]![7]).toBe('40');
  });

  it('gives the JSON entries as they are kept, unguarded', async () => {
    const body = (await (await service.get(`/watch/v1/${id}/history.json`)).json()) as {
      history: HistoryEntry[];
    };
    expect(body.history).toEqual([awkward]);
  });
});

describe('a watch with no change yet', () => {
  it('draws a flat line with no dot, and says there was no change', async () => {
    const watch = await createWatch(service, { target: '8.8.100.13', interval_s: 3600 });
    const page = await (await service.get(`/watch/v1/${watch.id}/share?lang=en`)).text();
    expect(page).toContain('<figure class="timeline-chart">');
    expect(page).not.toMatch(/<circle\s+class="change"/);
    expect(/<path class="line" d="([^"]+)"/.exec(page)![1]).toMatch(/^M[\d.]+ [\d.]+ H[\d.]+$/);
    expect(page).toContain('No change since the watch began.');
    expect(page).toContain('Live: re-checked every hour.');
    expect(page).not.toContain('listed since');
    const csv = await (await service.get(`/watch/v1/${watch.id}/history.csv`)).text();
    expect(csv).toBe(`${header}\r\n`);
  });
});

describe('an unknown or ended watch', () => {
  it.each(['history.csv', 'history.json'])('answers 404 not_found for %s', async (file) => {
    const response = await service.get(`/watch/v1/AAAAAAAAAAAAAAAAAAAAAA/${file}`);
    await expectError(response, 404, {
      status: 'error',
      code: 'not_found',
      error: expect.any(String),
    });
  });

  it('answers 404 once the watch has ended, as the view does', async () => {
    const watch = await createWatch(service, { target: '8.8.100.11' });
    service.setNow(new Date(Date.parse(watch.expires_at) + 1000));
    try {
      for (const file of ['', '/history.csv', '/history.json']) {
        const response = await service.get(`/watch/v1/${watch.id}${file}`);
        expect(response.status, file).toBe(404);
      }
    } finally {
      service.setNow(new Date());
    }
  });
});
