import type { ListCoverage } from '../../src/reputation/lists/coverage.js';
import type { ShareListing, ShareSummary } from '../../src/share/summary.js';

/** The tools whose summaries the share renderers are shown with. */
type ShareTool = 'ip' | 'domain' | 'pool';

/** Results as the tools would hand them to the share renderers. */

export const checkedAt = '2025-06-14T09:41:00Z';

/** A coverage with the counts given and every other count 0. */
export function coverageWith(counts: Partial<ListCoverage> & { total: number }): ListCoverage {
  return {
    blocking: 0,
    informational: 0,
    answered: 0,
    not_answered: 0,
    on_hold: 0,
    disabled: 0,
    ...counts,
  };
}

/** An IPv6 address answered by both lists that cover IPv6; the other 16 do not (docs/ipv6.md). */
export const ipv6Coverage = coverageWith({ answered: 2, not_covered: 16, total: 2 });

/** The longest name DNS allows: 253 characters, four labels of up to 63. */
export const longestName = `${['a', 'b', 'c'].map((letter) => `${letter}-${'x'.repeat(61)}`).join('.')}.${'y'.repeat(57)}.com`;

export const cyrillicName = 'пример.рф';

/**
 * The longest canonical IPv6 address (RFC 5952: 39 characters, eight groups of four digits), of
 * the widest hexadecimal glyphs (digits, `b`, `d`): the widest IPv6 target a card can be asked
 * to draw.
 */
export const longestIpv6 = '2d8b:d8b9:8d9b:b8d9:d9b8:9bd8:8db9:b9d8';

const severities = ['major', 'minor', 'info'] as const;

/** Every list listing the target. */
export function everyListing(count: number): ShareListing[] {
  return Array.from({ length: count }, (_, index) => ({
    list: `Blocklist number ${index + 1} with a long name`,
    detail: 'Listed for sending unsolicited bulk email to spam traps, repeatedly',
    severity: severities[index % severities.length]!,
  }));
}

export function summaryFor(tool: ShareTool, overrides: Partial<ShareSummary> = {}): ShareSummary {
  const base: Record<ShareTool, ShareSummary> = {
    ip: {
      tool: 'ip',
      counts: 'lists',
      target: '203.0.113.7',
      verdict: 'poor',
      score: 61,
      listed: 2,
      checked: 48,
      listings: [
        { list: 'Spamhaus ZEN', detail: 'SBL spam source', severity: 'major' },
        { list: 'Barracuda BRBL', detail: 'Listed for sending spam', severity: 'minor' },
      ],
      rdns: { ptr: 'mail.example.net', fcrdns: 'pass' },
      checkedAt,
    },
    domain: {
      tool: 'domain',
      counts: 'lists',
      target: 'example.com',
      verdict: 'fair',
      score: 80,
      listed: 2,
      checked: 12,
      listings: [
        { list: 'Spamhaus DBL', detail: 'Spam domain', severity: 'major' },
        { list: 'SURBL multi', detail: 'Abuse', severity: 'minor' },
      ],
      addresses: { total: 4, listed: 1 },
      checkedAt,
    },
    pool: {
      tool: 'pool',
      counts: 'addresses',
      target: 'mx.example.net',
      verdict: 'fair',
      score: null,
      listed: 1,
      checked: 16,
      listings: [
        { list: '203.0.113.9', detail: 'Spamhaus ZEN, Barracuda BRBL', severity: 'major' },
      ],
      addresses: { total: 16, listed: 1 },
      checkedAt,
    },
  };
  return { ...base[tool], ...overrides };
}

export const tools: ShareTool[] = ['ip', 'domain', 'pool'];
