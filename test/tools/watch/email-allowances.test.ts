import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpInbox, startSmtpInbox } from '../../../fixtures/smtp-inbox.js';
import { freshRedisUrl } from '../../support/redis.js';
import { killServerProcesses, startServerProcess } from '../../support/server-process.js';
import { startTestService, type TestService } from '../../support/service.js';
import { useWatchWorld } from '../../watch/support.js';
import { createWatch, send } from './support.js';

/**
 * The day's allowances of confirmation e-mails (docs/watches.md, "E-mail"), over real HTTP and
 * real SMTP: `+tag` and dot variants are one mailbox, three callers changing one watch get three
 * messages for it in all, one network gets twelve, and EMAIL_CONFIRMATIONS_PER_DAY caps the
 * service; under WORKERS=2 on one SQLite file and one Redis, requests racing through both
 * workers get no more than the bounds.
 */

const target = '8.8.100.9';
const publicUrl = 'https://rep.example.org';
const from = (address: string) => ({ 'x-forwarded-for': address });

interface ErrorBody {
  code: string;
  error: string;
}

describe('confirmation allowances', () => {
  let inbox: SmtpInbox;
  let service: TestService;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    service = await startTestService({
      env: {
        SMTP_URL: inbox.url,
        ALERT_FROM: 'alerts@rep.example.org',
        PUBLIC_URL: publicUrl,
        TRUST_PROXY: '1',
      },
      now: new Date('2026-11-27T20:00:00Z'),
    });
  });
  afterAll(async () => {
    await service.close();
    await inbox.close();
  });

  async function expectLimit(response: Response, words: RegExp) {
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe(String(4 * 3600));
    const body = (await response.json()) as ErrorBody;
    expect(body.code).toBe('email_limit');
    expect(body.error).toMatch(words);
  }

  it('counts +tag and dot variants of an address as one mailbox', async () => {
    const variants = [
      'jane.doe+a@example.org',
      'JaneDoe+b@example.org',
      'j.a.n.e.d.o.e@example.org',
      'janedoe+c@example.org',
    ];
    for (const [i, email] of variants.slice(0, 3).entries()) {
      await createWatch(service, { target, email }, from(`192.0.2.${10 + i}`));
    }
    await expectLimit(
      await service.post('/watch/v1', { target, email: variants[3] }, from('198.51.100.10')),
      /one mailbox/,
    );
    await inbox.waitFor(3);
  });

  it('sends three confirmations for one watch a day, however many callers ask', async () => {
    const watch = await createWatch(
      service,
      { target, email: 'first@example.org' },
      from('203.0.113.10'),
    );
    const patch = (email: string, caller: string) =>
      send(service, 'PATCH', `/watch/v1/${watch.id}`, {
        key: watch.manage_key,
        body: { email },
        headers: from(caller),
      });
    expect((await patch('second@example.net', '198.51.100.20')).status).toBe(200);
    expect((await patch('third@example.com', '192.0.2.200')).status).toBe(200);
    await expectLimit(await patch('fourth@example.org', '203.0.114.9'), /one watch/);
  });

  it('sends twelve a day for one network (an IPv4 /24)', async () => {
    for (let i = 0; i < 12; i++) {
      await createWatch(service, { target, email: `net${i}@example.org` }, from(`100.64.7.${i}`));
    }
    await expectLimit(
      await service.post('/watch/v1', { target, email: 'net12@example.org' }, from('100.64.7.99')),
      /one network/,
    );
    // Another network is not held by it.
    await createWatch(service, { target, email: 'other-net@example.org' }, from('100.64.8.1'));
  });
});

describe('confirmation allowances under WORKERS=2', () => {
  const world = useWatchWorld();
  let inbox: SmtpInbox;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
  });
  afterAll(() => inbox.close());
  afterEach(() => killServerProcesses());

  const sqliteUrl = () =>
    `sqlite:${join(mkdtempSync(join(tmpdir(), 'email-allowances-')), 'store.db')}`;

  it.each([
    ['sqlite', async () => sqliteUrl()],
    ['redis', freshRedisUrl],
  ])(
    'holds one mailbox’s three and the service’s daily total on one %s store',
    { timeout: 60_000 },
    async (store, storeUrl) => {
      const server = await startServerProcess(
        {
          DNS_SERVERS: world.dns.address,
          // Generous: a fresh check that runs out of time on a loaded machine answers 503, not the
          // 201 or 429 the bounds are about.
          DNS_TIMEOUT_MS: '5000',
          DNS_RETRIES: '1',
          CHECK_DEADLINE_MS: '12000',
          STORE_URL: await storeUrl(),
          WORKERS: '2',
          TRUST_PROXY: '1',
          SMTP_URL: inbox.url,
          ALERT_FROM: 'alerts@rep.example.org',
          PUBLIC_URL: publicUrl,
          EMAIL_CONFIRMATIONS_PER_DAY: '5',
        },
        { listeners: 2 },
      );
      const create = (email: string, caller: string) =>
        fetch(`${server.url}/watch/v1`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': caller },
          body: JSON.stringify({ target, email }),
        });
      // Six callers of six networks at once, six variants of one mailbox: three get through.
      const variants = await Promise.all(
        Array.from({ length: 6 }, (_, i) => create(`box.${store}+${i}@example.org`, `10.${i}.0.1`)),
      );
      const statuses = variants.map((response) => response.status).sort();
      expect(statuses).toEqual([201, 201, 201, 429, 429, 429]);
      // Six more mailboxes at once: the service's total of five leaves two.
      const distinct = await Promise.all(
        Array.from({ length: 6 }, (_, i) => create(`m${i}.${store}@example.org`, `10.${i}.1.1`)),
      );
      expect(distinct.filter((response) => response.status === 201)).toHaveLength(2);
      const refused = distinct.filter((response) => response.status === 429);
      expect(refused).toHaveLength(4);
      const body = (await refused[0]!.json()) as ErrorBody;
      expect(body).toMatchObject({ code: 'email_limit' });
      expect(body.error).toContain('EMAIL_CONFIRMATIONS_PER_DAY');
      expect(refused[0]!.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await server.stop()).toBe(0);
    },
  );
});
