import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import { type SmtpInbox, startSmtpInbox } from '../../../fixtures/smtp-inbox.js';
import { loadZoneList } from '../../../src/reputation/lists/zones.js';
import { rawRequest } from '../../support/raw-http.js';
import { basePath, startTestService, type TestService } from '../../support/service.js';
import type { CreatedWatch } from './support.js';

/**
 * An e-mail's links come from PUBLIC_URL alone (docs/watches.md, "E-mail"): a forged `Host`,
 * `X-Forwarded-Host` or `Forwarded` on the request that creates a watch is in no message, though
 * the service trusts the loopback proxy's forwarded headers; a watch stored with another origin,
 * and an alert queued under it, are mailed with PUBLIC_URL's links. Real HTTP, a real SMTP
 * server on 127.0.0.1.
 */

const target = '8.8.100.9';
const zoneList = await loadZoneList();
const listed = dnsblWorld(zoneList, { [target]: { 'zen.spamhaus.org': ['127.0.0.2'] } });
const publicUrl = 'https://rep.example.org';
const forged = ['evil-host.example', 'evil-xfh.example', 'evil-forwarded.example'];
const attacker = 'https://attacker.example';

let inbox: SmtpInbox;
let service: TestService;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  service = await startTestService({
    env: {
      SMTP_URL: inbox.url,
      ALERT_FROM: 'alerts@rep.example.org',
      PUBLIC_URL: publicUrl,
      // The loopback peer is a trusted proxy: its forwarded host would name every page's links.
      TRUST_PROXY: '127.0.0.0/8',
      WATCH_MIN_INTERVAL_S: '1',
    },
  });
});
afterAll(async () => {
  await service.close();
  await inbox.close();
});

/** Every URL a message holds, in its headers and both parts. */
function urlsIn(raw: string): string[] {
  return raw.match(/https?:\/\/[^\s<>"]+/g) ?? [];
}

/** A message's link as the test service on 127.0.0.1 answers it. */
function local(link: string): string {
  expect(link.startsWith(`${publicUrl}${basePath}/watch/v1/`)).toBe(true);
  return service.rootUrl(link.slice(publicUrl.length));
}

/**
 * None of the forged names in the message, and every link to the service under PUBLIC_URL (a
 * list's lookup and delisting pages are the lists' own).
 */
function expectOnlyPublicUrl(raw: string) {
  for (const name of [...forged, 'attacker.example', '127.0.0.1']) expect(raw).not.toContain(name);
  const ours = urlsIn(raw.replace(/=\r\n/g, '')).filter((url) => url.includes('/watch/v1/'));
  expect(ours.length).toBeGreaterThan(0);
  for (const url of ours) expect(url.startsWith(`${publicUrl}${basePath}/watch/v1/`)).toBe(true);
}

async function confirmFrom(count: number, to: string): Promise<void> {
  const mail = (await inbox.waitFor(count)).find((found) => found.envelope.to[0] === to)!;
  const link = /https?:\/\/\S+\/email\/confirm\?code=\S+/.exec(mail.text)![0];
  expect((await service.fetch(local(link), { method: 'POST' })).status).toBe(200);
}

describe('e-mail links', () => {
  it('carry no forged Host, X-Forwarded-Host or Forwarded of the request that created the watch', async () => {
    const created = await rawRequest(service.url('/watch/v1'), {
      method: 'POST',
      headers: {
        host: forged[0]!,
        'x-forwarded-host': forged[1]!,
        'x-forwarded-proto': 'http',
        forwarded: `host=${forged[2]!};proto=http`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        target,
        email: 'forged@example.org',
        interval_s: 1,
        confirmations: 1,
      }),
    });
    expect(created.status).toBe(201);
    const watch = JSON.parse(created.body.toString()) as CreatedWatch;
    // The answer's own links are PUBLIC_URL's too.
    expect(watch.page_url.startsWith(publicUrl)).toBe(true);
    const [confirmation] = await inbox.waitFor(1);
    expectOnlyPublicUrl(confirmation!.raw);
    await confirmFrom(1, 'forged@example.org');

    // The alert: its page, its delisting form's host aside, its List-Unsubscribe.
    await service.setZones(listed);
    const [, alert] = await inbox.waitFor(2, 15_000);
    expect(alert!.subject).toContain(target);
    expectOnlyPublicUrl(alert!.raw);
    expect(alert!.headers.get('list-unsubscribe')).toMatch(
      new RegExp(`^<${publicUrl}${basePath}/watch/v1/${watch.id}/email/unsubscribe\\?code=`),
    );
    expect(alert!.text).toContain(`${publicUrl}${basePath}/watch/v1/${watch.id}/share`);
  }, 30_000);

  it('are PUBLIC_URL’s for a watch stored with another origin, and for an alert queued under it', async () => {
    const response = await service.post('/watch/v1', { target, email: 'stored@example.org' });
    const watch = (await response.json()) as CreatedWatch;
    await confirmFrom(3, 'stored@example.org');
    // What an earlier version kept: the origin of the creating request, and an alert built on it.
    const key = `watch:${watch.id}`;
    const config = JSON.parse((await service.store.get(key))!) as Record<string, unknown>;
    await service.store.set(key, JSON.stringify({ ...config, origin: attacker }), 86_400_000);
    const eventId = 'evt_StoredUnderAnotherOrg';
    const event = {
      type: 'watch.listed',
      created_at: new Date().toISOString(),
      data: {
        watch: {
          id: watch.id,
          target,
          kind: 'ip',
          page_url: `${attacker}${basePath}/watch/v1/${watch.id}/share`,
          badge_url: `${attacker}${basePath}/watch/v1/${watch.id}/badge.svg`,
        },
        added: [
          { zone: 'zen.spamhaus.org', name: 'Spamhaus ZEN', code: '127.0.0.2', meaning: 'SBL' },
        ],
        removed: [],
        listed_on: [{ zone: 'zen.spamhaus.org', name: 'Spamhaus ZEN' }],
        verdict: 'poor',
        score: 40,
      },
    };
    await service.store.set(
      `watch-delivery:${eventId}`,
      JSON.stringify({
        id: eventId,
        watch_id: watch.id,
        body: JSON.stringify(event),
        attempts: 0,
        queued_at: Date.now(),
        email: { to: 'stored@example.org', kind: 'alert' },
      }),
      86_400_000,
    );
    await service.store.putDue('watch-queue:deliveries', eventId, Date.now());
    const mail = await expect
      .poll(() => inbox.received.find((found) => found.raw.includes(eventId)), { timeout: 10_000 })
      .toBeDefined()
      .then(() => inbox.received.find((found) => found.raw.includes(eventId))!);
    expectOnlyPublicUrl(mail.raw);
    expect(mail.text).toContain(`${publicUrl}${basePath}/watch/v1/${watch.id}/share`);

    // A new address's confirmation for that watch: its link is PUBLIC_URL's too.
    const patched = await service.fetch(service.url(`/watch/v1/${watch.id}`), {
      method: 'PATCH',
      headers: { authorization: `Bearer ${watch.manage_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'moved@example.org' }),
    });
    expect(patched.status).toBe(200);
    await expect
      .poll(() => inbox.received.some((found) => found.envelope.to[0] === 'moved@example.org'), {
        timeout: 10_000,
      })
      .toBe(true);
    expectOnlyPublicUrl(
      inbox.received.find((found) => found.envelope.to[0] === 'moved@example.org')!.raw,
    );
  }, 30_000);
});
