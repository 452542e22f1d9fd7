import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestService, startTestService } from '../support/service.js';

/**
 * The contradictions docs/verdicts.md#one-reading-of-a-result rules out, each on a real share
 * page: the headline, the counts, each row's colour and the verdict read the same findings the
 * same way (src/share/verdict-model.ts).
 */

const pblOnly = '192.0.3.40';
const poorGrade = '192.0.3.41';
const minorListing = '192.0.3.42';
const html = { Accept: 'text/html' };

let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    listings: {
      [pblOnly]: { 'zen.spamhaus.org': ['127.0.0.10'] },
      // Mailspike's reputation L4 (rep.mailspike.net 127.0.0.11): a grade, not a listing.
      [poorGrade]: { 'rep.mailspike.net': ['127.0.0.11'] },
      [minorListing]: { 'psbl.surriel.com': ['127.0.0.2'] },
      '185.71.0.1': { 'psbl.surriel.com': ['127.0.0.2'] },
    },
    zones: [
      {
        origin: 'one-sender.com',
        records: { 'one-sender.com': { TXT: ['v=spf1 ip4:185.71.0.1 -all'] } },
      },
    ],
  });
});
afterAll(() => service.close());

async function sharePage(tool: string, target: string): Promise<string> {
  const response = await service.post(`/${tool}/v1`, { target });
  expect(response.status).toBe(200);
  const { token } = (await response.json()) as { token: string };
  const page = await service.get(`/${tool}/v1/share/${token}`, html);
  expect(page.status).toBe(200);
  return page.text();
}

/** The rows of the lists tables: each row's status cell class and text. */
function statusCells(page: string): { tone: string; text: string }[] {
  return [...page.matchAll(/<td data-label="[^"]*" class="status-([a-z_]+)">([^<]*)<\/td>/g)].map(
    (match) => ({
      tone: match[1] ?? '',
      text: (match[2] ?? '').trim(),
    }),
  );
}

function verdictPill(page: string): string | undefined {
  return /<span class="pill verdict-(\w+)"/.exec(page)?.[1];
}

describe('one reading of a result on the share page', () => {
  it('shows a listing for information only as such, never as a red "listed" under "not listed on any"', async () => {
    const page = await sharePage('ip', pblOnly);
    expect(page).toContain('not listed on any of');
    expect(page).toContain('1 lists it for information only');
    // PBL is a policy listing: muted, in its own words, never "good" beside it.
    expect(statusCells(page)).toContainEqual({
      tone: 'informational',
      text: 'policy listing: should send through its provider’s relay',
    });
    expect(statusCells(page).map((cell) => cell.tone)).not.toContain('listed');
    expect(verdictPill(page)).toBe('fair');
  });

  it('shows a grade that costs points as a poor reputation, counted in the headline, never as "not listed"', async () => {
    const page = await sharePage('ip', poorGrade);
    expect(page).toContain('poor reputation L4');
    expect(page).toContain('1 gives it a poor reputation');
    expect(statusCells(page)).toContainEqual({ tone: 'poor_reputation', text: 'poor reputation' });
    expect(verdictPill(page)).not.toBe('good');
  });

  it('never calls an address good beside a blocking listing', async () => {
    const page = await sharePage('ip', minorListing);
    expect(statusCells(page)).toContainEqual({ tone: 'listed', text: 'listed' });
    expect(verdictPill(page)).toBe('fair');
  });

  it('says why a sender address scores differently inside a domain check', async () => {
    const page = await sharePage('domain', 'one-sender.com');
    expect(page).toContain('185.71.0.1');
    expect(page).toContain('the IP check also counts reverse DNS');
  });
});
