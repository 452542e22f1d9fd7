import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FixtureZone } from '../../fixtures/dns-server.js';
import { freePort } from '../../fixtures/free-port.js';
import { issueCertificate, type Listening, startPolicyServer } from '../../fixtures/mail-world.js';
import { thirdPartyTextChars } from '../../src/lib/index.js';
import {
  boundedHistory,
  type HistoryEntry,
  maxHistoryChars,
  maxItemsPerChange,
  boundedChange,
} from '../../src/watch/model/index.js';
import {
  operatorToken,
  startWatchService,
  testClock,
  useWatchWorld,
  type WatchService,
} from './support.js';

/**
 * Third-party text enters a watch cleaned and clipped, and what a watch keeps is bounded
 * (docs/watches.md, "Safety"): a mail watch whose MTA-STS policy (served over HTTPS on 127.0.0.3
 * with a certificate of the run's test CA) and DKIM record (the fixture DNS on the wire) alternate
 * between a good setup and one whose words hold escape codes, a right-to-left override and tens
 * of kilobytes; after 9 changes its view holds none of those characters, no text over 300
 * characters, and stays small.
 */

const ca = inject('mailCa');
const world = useWatchWorld();
const domain = 'wordy-mail.net';
const key = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64');
const junk = (size: number) => `\u202e\u001b[31m${'x'.repeat(size)}`;

let bad = false;
let policy: Listening;
let httpsPort: number;
let service: WatchService;
const clock = testClock();

const zone = (): FixtureZone[] => [
  {
    origin: domain,
    records: {
      [domain]: { TXT: ['v=spf1 -all'] },
      [`_dmarc.${domain}`]: { TXT: ['v=DMARC1; p=reject'] },
      [`_mta-sts.${domain}`]: { TXT: ['v=STSv1; id=1'] },
      [`mta-sts.${domain}`]: { A: ['127.0.0.3'] },
      // An unknown key type, named at length: the check's detail echoes it.
      [`s1._domainkey.${domain}`]: {
        TXT: [bad ? `v=DKIM1; k=${'k'.repeat(20_000)}; p=${key}` : `v=DKIM1; p=${key}`],
      },
    },
  },
];

beforeAll(async () => {
  httpsPort = await freePort();
  policy = await startPolicyServer({
    host: '127.0.0.3',
    port: httpsPort,
    tls: await issueCertificate(ca, [`mta-sts.${domain}`]),
    handler: (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      // A mode the policy's reader quotes back, 40 KB of it with an escape code and an override.
      const mode = bad ? junk(40_000) : 'testing';
      response.end(`version: STSv1\r\nmode: ${mode}\r\nmx: mx.${domain}\r\nmax_age: 86400\r\n`);
    },
  });
  world.dns.list({}, zone());
  service = await startWatchService(world.dns.address, {
    clock,
    env: {
      PROBE_ALLOW_NETWORKS: '127.0.0.0/8',
      PROBE_HTTPS_PORT: String(httpsPort),
      SMTP_TIMEOUT_MS: '2000',
    },
  });
}, 60_000);

afterAll(async () => {
  await service?.close();
  await policy?.close();
  world.dns.list({});
});

describe('a mail watch whose third parties write at length', () => {
  it('keeps their words cleaned and clipped, and its view small, after 9 changes', async () => {
    const created = await service.watches.create(
      { target: domain, kind: 'mail', dkim_selectors: ['s1'], interval_s: 60, confirmations: 1 },
      { caller: '198.51.100.70', credential: operatorToken },
    );
    if (!created.ok) throw new Error(created.reason);
    const { id } = created.watch;
    for (let i = 0; i < 9; i++) {
      bad = !bad;
      world.dns.list({}, zone());
      const before = (await service.watches.view(id))!;
      clock.advance(Math.max(0, Date.parse(before.next_check_at!) - clock.now().getTime()));
      await service.runUntilIdle();
    }
    const view = (await service.watches.view(id, { withDelivery: true }))!;
    expect(view.history).toHaveLength(9);
    const text = JSON.stringify(view);
    for (const character of ['\u202e', '\u001b', '\u0000']) expect(text).not.toContain(character);
    const strings: string[] = [];
    JSON.parse(text, (_key, value: unknown) => {
      if (typeof value === 'string') strings.push(value);
      return value;
    });
    expect(Math.max(...strings.map((value) => Array.from(value).length))).toBeLessThanOrEqual(
      thirdPartyTextChars,
    );
    // The words said what they said, clipped: the change from testing names the mode's text.
    const sts = view.history
      .flatMap((entry) => entry.changes ?? [])
      .find((c) => c.what === 'mta_sts');
    expect(sts?.detail).toMatch(/\ufffd\ufffd\[31mx+…/);
    expect(text.length).toBeLessThan(32 * 1024);
  }, 120_000);
});

describe('the history', () => {
  const entry = (i: number, size: number): HistoryEntry => ({
    at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    added: [],
    removed: [],
    changes: [
      { what: 'dkim', subject: `s${i}`, from: 'found', to: 'invalid', detail: 'x'.repeat(size) },
    ],
    verdict: 'good',
    score: 90,
  });

  it(`keeps the newest entries within ${maxHistoryChars} characters, and always the newest`, () => {
    const entries = Array.from({ length: 100 }, (_, i) => entry(i, 2000));
    const kept = boundedHistory(entries);
    expect(kept[0]).toBe(entries[0]);
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(maxHistoryChars);
    expect(kept.length).toBeGreaterThan(20);
    expect(kept.length).toBeLessThan(100);
    expect(boundedHistory([entry(0, 100_000)])).toHaveLength(1);
    expect(boundedHistory(Array.from({ length: 120 }, (_, i) => entry(i, 10)))).toHaveLength(100);
  });

  it(`carries at most ${maxItemsPerChange} items of each kind in an entry and an event`, () => {
    const listing = (i: number) => ({
      zone: `z${i}.example`,
      name: `Z${i}`,
      code: '127.0.0.2',
      meaning: 'spam',
    });
    const many = Array.from({ length: 200 }, (_, i) => listing(i));
    const bounded = boundedChange({ added: many, removed: many.slice(0, 3), changes: [] });
    expect(bounded.added).toHaveLength(maxItemsPerChange);
    expect(bounded.added[0]).toEqual(listing(0));
    expect(bounded.removed).toHaveLength(3);
  });
});
