import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import { freePort } from '../../../fixtures/free-port.js';
import { type ReceivedMail, type SmtpInbox, startSmtpInbox } from '../../../fixtures/smtp-inbox.js';
import { readConfig } from '../../../src/node/config.js';
import { loadZoneList } from '../../../src/reputation/lists/zones.js';
import { basePath, startTestService, type TestService } from '../../support/service.js';
import { createWatch, send } from './support.js';

/**
 * E-mail alerts over real HTTP and real SMTP (docs/watches.md, "E-mail"): the real app with
 * SMTP_URL pointing at an smtp-server on 127.0.0.1 that keeps what it takes. Double opt-in (the
 * confirmation message, a GET that confirms nothing, the POST that does), an alert with its text
 * and HTML parts and its headers, RFC 8058's one-click POST, after which a change sends nothing;
 * the daily limits, an expired link, a service without SMTP_URL, a server that is down.
 */

const target = '8.8.100.9';
const zoneList = await loadZoneList();
const listed = dnsblWorld(zoneList, { [target]: { 'zen.spamhaus.org': ['127.0.0.2'] } });
const clean = dnsblWorld(zoneList, {});
const from = 'Reputation <alerts@rep.example.org>';
const fastRetries = {
  watchRunner: { retryDelaysMs: [300, 300, 300], confirmRetryDelaysMs: [300, 300, 300] },
};
/** Every link of a message is under PUBLIC_URL, which SMTP_URL needs. */
const publicUrl = 'https://rep.example.org';

/** The first URL in a text whose path holds `part`. */
function linkIn(text: string, part: string): string {
  const url = text.match(/https?:\/\/\S+/g)?.find((found) => found.includes(part));
  if (!url) throw new Error(`no ${part} link in: ${text}`);
  return url;
}

/** A message's link (under PUBLIC_URL) as the test service on 127.0.0.1 answers it. */
function local(service: TestService, link: string): string {
  if (!link.startsWith(`${publicUrl}/`)) throw new Error(`not under PUBLIC_URL: ${link}`);
  return service.rootUrl(link.slice(publicUrl.length));
}

/** Polls until `check` holds (the service's own timer re-checks every second). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function viewOf(service: TestService, id: string, key?: string) {
  const response = await service.get(
    `/watch/v1/${id}`,
    key ? { authorization: `Bearer ${key}` } : {},
  );
  return (await response.json()) as {
    email: { address: string; confirmed: boolean } | null;
    history: unknown[];
  };
}

/** A JSON error with this status and code (its message is the service's words). */
async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(((await response.json()) as { code: string }).code).toBe(code);
}

function expectAutomatic(mail: ReceivedMail) {
  expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
  expect(mail.headers.get('message-id')).toMatch(/^<evt_[A-Za-z0-9_-]{22}@rep\.example\.org>$/);
  expect(Date.parse(mail.headers.get('date') ?? '')).not.toBeNaN();
  expect(mail.headers.get('from')).toBe(from);
  expect(mail.headers.get('content-type')).toMatch(/^multipart\/alternative/);
}

describe('e-mail alerts: opt-in, alert, one-click unsubscribe', () => {
  let inbox: SmtpInbox;
  let service: TestService;

  beforeAll(async () => {
    inbox = await startSmtpInbox({ auth: { user: 'relay user', pass: 'p@ss:word' } });
    service = await startTestService({
      env: {
        WATCH_MIN_INTERVAL_S: '1',
        SMTP_URL: inbox.url,
        ALERT_FROM: from,
        PUBLIC_URL: publicUrl,
      },
      services: fastRetries,
    });
  });
  afterAll(async () => {
    await service.close();
    await inbox.close();
  });

  it('confirms by POST only, alerts with both parts and RFC 8058 headers, and stops at one click', async () => {
    const watch = await createWatch(service, {
      target,
      interval_s: 1,
      confirmations: 1,
      email: 'Postmaster@EXAMPLE.org',
    });
    // The creator sees the address whole; anyone else masked.
    expect(watch.email).toEqual({ address: 'Postmaster@example.org', confirmed: false });
    expect((await viewOf(service, watch.id)).email).toEqual({
      address: 'P***@example.org',
      confirmed: false,
    });
    expect((await viewOf(service, watch.id, watch.manage_key)).email?.address).toBe(
      'Postmaster@example.org',
    );

    // One confirmation message, through the relay's AUTH (the credentials of SMTP_URL).
    const [confirmation] = await inbox.waitFor(1);
    expect(confirmation!.envelope).toEqual({
      from: 'alerts@rep.example.org',
      to: ['Postmaster@example.org'],
    });
    expectAutomatic(confirmation!);
    expect(confirmation!.headers.has('list-unsubscribe')).toBe(false);
    expect(confirmation!.subject).toBe(`Confirm e-mail alerts for ${target}`);
    const sent = linkIn(confirmation!.text, '/email/confirm?code=');
    expect(sent).toBe(
      `${publicUrl}${basePath}/watch/v1/${watch.id}/email/confirm?code=${new URL(sent).searchParams.get('code')}`,
    );
    expect(confirmation!.html).toContain(`href="${sent}"`);
    const link = local(service, sent);

    // A scanner that follows the link, as a browser or as an API client, confirms nothing.
    const page = await service.fetch(link, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toMatch(/<form method="post" action="[^"]*\/email\/confirm\?code=/);
    const asJson = await service.fetch(link);
    expect(asJson.headers.get('cache-control')).toBe('no-store');
    expect(await asJson.json()).toEqual({ email: 'unconfirmed' });
    expect((await viewOf(service, watch.id)).email?.confirmed).toBe(false);

    // Nothing else goes to an unconfirmed address: a listing is recorded, and no alert is sent.
    await service.setZones(listed);
    await until(async () => (await viewOf(service, watch.id)).history.length === 1, 'the listing');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(inbox.received).toHaveLength(1);

    const confirmed = await service.fetch(link, { method: 'POST' });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ email: 'confirmed' });
    expect((await viewOf(service, watch.id)).email).toEqual({
      address: 'P***@example.org',
      confirmed: true,
    });
    // A second POST of the link (a double click) is no error.
    expect((await service.fetch(link, { method: 'POST' })).status).toBe(200);

    // The delisting is e-mailed: text and HTML, the headers, the unsubscribe URL.
    await service.setZones(clean);
    const [, alert] = await inbox.waitFor(2);
    expectAutomatic(alert!);
    expect(alert!.headers.get('message-id')).not.toBe(confirmation!.headers.get('message-id'));
    // The subject names the list; the text's first line is the title.
    expect(alert!.subject).toBe(`${target} was delisted from Spamhaus ZEN`);
    expect(alert!.text.split(/\r?\n/)[0]).toBe(alert!.subject);
    expect(alert!.text).toContain('Delisted from:');
    expect(alert!.text).toContain('Spamhaus');
    expect(alert!.html).toContain('Delisted from:');
    const unsubscribe = alert!.headers.get('list-unsubscribe')!;
    expect(unsubscribe).toMatch(
      new RegExp(
        `^<${publicUrl}${basePath}/watch/v1/${watch.id}/email/unsubscribe\\?code=[A-Za-z0-9_-]{22}>$`,
      ),
    );
    expect(alert!.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(alert!.text).toContain(unsubscribe.slice(1, -1));
    const unsubscribeUrl = local(service, unsubscribe.slice(1, -1));

    // Its GET is a page with a button, and stops nothing.
    const unsubscribePage = await service.fetch(unsubscribeUrl, {
      headers: { accept: 'text/html' },
    });
    expect(await unsubscribePage.text()).toContain('name="List-Unsubscribe" value="One-Click"');
    expect((await viewOf(service, watch.id)).email?.confirmed).toBe(true);

    // A body that is not the one-click is refused; the one-click POST stops the mail at once.
    const wrongBody = await send(
      service,
      'POST',
      `/watch/v1/${watch.id}/email/unsubscribe?code=x`,
      {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'unsubscribe=yes',
      },
    );
    await expectError(wrongBody, 400, 'invalid_request');
    const tooLarge = await service.fetch(unsubscribeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `List-Unsubscribe=One-Click&pad=${'x'.repeat(20_000)}`,
    });
    await expectError(tooLarge, 413, 'body_too_large');
    const wrongCode = await service.fetch(unsubscribeUrl.replace(/code=.*/, 'code=AAAA'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    await expectError(wrongCode, 403, 'email_code_wrong');
    const oneClick = await service.fetch(unsubscribeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.json()).toEqual({ email: 'unsubscribed' });
    expect((await viewOf(service, watch.id)).email).toBeNull();

    // The next change is recorded and mailed to no one.
    await service.setZones(listed);
    await until(
      async () => (await viewOf(service, watch.id)).history.length === 3,
      'the relisting',
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(inbox.received).toHaveLength(2);
  }, 60_000);

  it('writes in the watch’s language, and takes the one-click POST as multipart/form-data', async () => {
    const watch = await createWatch(service, { target, email: 'multi@example.org', lang: 'ru' });
    const [, , mail] = await inbox.waitFor(3);
    expect(mail!.envelope.to).toEqual(['multi@example.org']);
    expect(mail!.subject).toBe(`Подтвердите оповещения по почте о ${target}`);
    expect(mail!.text).toContain('Ссылка действует до');
    expect(mail!.html).toContain('Чтобы подтвердить');
    const ruPage = await service.fetch(local(service, linkIn(mail!.text, '/email/confirm?code=')), {
      headers: { accept: 'text/html' },
    });
    expect(await ruPage.text()).toContain('Подтвердить оповещения');
    const confirm = local(service, linkIn(mail!.text, '/email/confirm?code='));
    expect((await service.fetch(confirm, { method: 'POST' })).status).toBe(200);
    // The unsubscribe link is the one every alert would carry.
    const page = await service.fetch(
      service.url(`/watch/v1/${watch.id}/email/unsubscribe?code=x`),
      {
        headers: { accept: 'text/html' },
      },
    );
    expect(page.status).toBe(200);
    const form = new FormData();
    form.set('List-Unsubscribe', 'One-Click');
    const wrong = await service.fetch(
      service.url(`/watch/v1/${watch.id}/email/unsubscribe?code=x`),
      {
        method: 'POST',
        body: form,
      },
    );
    await expectError(wrong, 403, 'email_code_wrong');
    // PATCH null stops the mail as well, and a one-click after it still answers 200.
    const patched = await send(service, 'PATCH', `/watch/v1/${watch.id}`, {
      key: watch.manage_key,
      body: { email: null },
    });
    expect(((await patched.json()) as { email: unknown }).email).toBeNull();
    const again = await service.fetch(
      service.url(`/watch/v1/${watch.id}/email/unsubscribe?code=x`),
      {
        method: 'POST',
        body: form,
      },
    );
    expect(await again.json()).toEqual({ email: 'unsubscribed' });
  });

  it('has the check page’s watch form ask for an address', async () => {
    const page = await service.fetch(service.url('/'), { headers: { accept: 'text/html' } });
    expect(await page.text()).toContain('id="watch-email"');
  });

  it('refuses what is not one plain address with invalid_email', async () => {
    for (const email of [
      '',
      'no-at-sign',
      'a@localhost',
      'a@b',
      '"quoted"@example.org',
      'a@[127.0.0.1]',
      'a b@example.org',
      'x'.repeat(65) + '@example.org',
    ]) {
      const response = await service.post('/watch/v1', { target, email });
      await expectError(response, 400, 'invalid_email');
    }
  });
});

describe('e-mail alerts: limits and expiry', () => {
  let inbox: SmtpInbox;
  let service: TestService;
  const start = new Date('2026-11-27T08:00:00Z');

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    service = await startTestService({
      env: {
        TRUST_PROXY: '1',
        SMTP_URL: inbox.url,
        ALERT_FROM: 'alerts@rep.example.org',
        PUBLIC_URL: publicUrl,
      },
      now: start,
      services: fastRetries,
    });
  });
  afterAll(async () => {
    await service.close();
    await inbox.close();
  });

  const as = (address: string) => ({ 'x-forwarded-for': address });

  it('sends at most 3 confirmations a day per address and per caller: the 4th is 429 email_limit', async () => {
    const watch = await createWatch(
      service,
      { target, email: 'limit@example.org' },
      as('203.0.113.1'),
    );
    await inbox.waitFor(1);
    // The same unconfirmed address again: a new link each time, within the day's three.
    for (let i = 0; i < 2; i++) {
      const again = await send(service, 'PATCH', `/watch/v1/${watch.id}`, {
        key: watch.manage_key,
        body: { email: 'limit@example.org' },
        headers: as('203.0.113.1'),
      });
      expect(again.status).toBe(200);
      await inbox.waitFor(2 + i);
    }
    // A fourth for the address, from another caller: refused, until the next UTC midnight.
    const fourth = await send(service, 'PATCH', `/watch/v1/${watch.id}`, {
      key: watch.manage_key,
      body: { email: 'limit@example.org' },
      headers: as('203.0.113.2'),
    });
    await expectError(fourth, 429, 'email_limit');
    expect(fourth.headers.get('retry-after')).toBe(String(16 * 3600));
    // A fourth from the caller, to another address: refused too, and no watch is made.
    const byCaller = await service.post(
      '/watch/v1',
      { target, email: 'other@example.org' },
      as('203.0.113.1'),
    );
    await expectError(byCaller, 429, 'email_limit');
    // Another caller, another address: sent.
    await createWatch(service, { target, email: 'other@example.org' }, as('203.0.113.3'));
    await inbox.waitFor(4);
    expect(inbox.received.map((mail) => mail.envelope.to[0])).toEqual([
      'limit@example.org',
      'limit@example.org',
      'limit@example.org',
      'other@example.org',
    ]);
    // The links of the earlier messages are not the last one's.
    const codes = inbox.received
      .slice(0, 3)
      .map((mail) => new URL(linkIn(mail.text, '/email/confirm')).searchParams.get('code'));
    expect(new Set(codes).size).toBe(3);
    const [first, , last] = inbox.received;
    await expectError(
      await service.fetch(local(service, linkIn(first!.text, '/email/confirm')), {
        method: 'POST',
      }),
      403,
      'email_code_wrong',
    );
    expect(
      (
        await service.fetch(local(service, linkIn(last!.text, '/email/confirm')), {
          method: 'POST',
        })
      ).status,
    ).toBe(200);
  });

  it('refuses a link past its 24 hours with 410 email_link_expired, as JSON and as a page', async () => {
    const watch = await createWatch(
      service,
      { target, email: 'late@example.org' },
      as('203.0.113.9'),
    );
    const mail = (await inbox.waitFor(5)).find(
      (found) => found.envelope.to[0] === 'late@example.org',
    )!;
    const link = local(service, linkIn(mail.text, '/email/confirm'));
    service.setNow(new Date(start.getTime() + 24 * 3600_000 + 1000));
    await expectError(await service.fetch(link, { method: 'POST' }), 410, 'email_link_expired');
    const page = await service.fetch(link, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(410);
    const html = await page.text();
    expect(html).toContain('This link has expired');
    expect(html).not.toContain('<form method="post"');
    expect((await viewOf(service, watch.id)).email?.confirmed).toBe(false);
    // A PATCH of the same address sends a new link, which confirms.
    await send(service, 'PATCH', `/watch/v1/${watch.id}`, {
      key: watch.manage_key,
      body: { email: 'late@example.org' },
      headers: as('203.0.113.9'),
    });
    const fresh = (await inbox.waitFor(6))[5]!;
    expect(
      (
        await service.fetch(local(service, linkIn(fresh.text, '/email/confirm')), {
          method: 'POST',
        })
      ).status,
    ).toBe(200);
    expect((await viewOf(service, watch.id)).email?.confirmed).toBe(true);
    // The same address again, once confirmed: nothing is sent, it stays confirmed.
    const same = await send(service, 'PATCH', `/watch/v1/${watch.id}`, {
      key: watch.manage_key,
      body: { email: 'late@example.org', interval_s: 1800 },
      headers: as('203.0.113.9'),
    });
    expect(((await same.json()) as { email: unknown }).email).toEqual({
      address: 'late@example.org',
      confirmed: true,
    });
    // Another address starts over, unconfirmed, with a message of its own.
    const moved = await send(service, 'PATCH', `/watch/v1/${watch.id}`, {
      key: watch.manage_key,
      body: { email: 'moved@example.org' },
      headers: as('203.0.113.9'),
    });
    expect(((await moved.json()) as { email: unknown }).email).toEqual({
      address: 'moved@example.org',
      confirmed: false,
    });
    const [, , , , , , last] = await inbox.waitFor(7);
    expect(last!.envelope.to).toEqual(['moved@example.org']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(inbox.received).toHaveLength(7);
    // An unknown watch's link is a 404.
    await expectError(
      await service.fetch(service.url('/watch/v1/AAAAAAAAAAAAAAAAAAAAAA/email/confirm?code=x')),
      404,
      'not_found',
    );
  });

  it('sends only the newest link when a new one is asked for before the last was sent', async () => {
    const to = (address: string) =>
      inbox.received.filter((mail) => mail.envelope.to[0] === address);
    inbox.refuse(true);
    try {
      const watch = await createWatch(
        service,
        { target, email: 'twice@example.org' },
        as('203.0.113.20'),
      );
      await until(
        async () => service.logs.some((line) => line.includes('e-mail delivery failed')),
        'a refused attempt',
      );
      await send(service, 'PATCH', `/watch/v1/${watch.id}`, {
        key: watch.manage_key,
        body: { email: 'twice@example.org' },
        headers: as('203.0.113.20'),
      });
    } finally {
      inbox.refuse(false);
    }
    await until(async () => to('twice@example.org').length === 1, 'the newest link');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const [mail] = to('twice@example.org');
    expect(to('twice@example.org')).toHaveLength(1);
    const confirmed = await service.fetch(local(service, linkIn(mail!.text, '/email/confirm')), {
      method: 'POST',
    });
    expect(confirmed.status).toBe(200);
  });
});

describe('e-mail alerts: without SMTP_URL, and with a server that is down', () => {
  it('refuses email with 422 email_unavailable when the operator set no SMTP_URL', async () => {
    const service = await startTestService();
    try {
      await expectError(
        await service.post('/watch/v1', { target, email: 'a@example.org' }),
        422,
        'email_unavailable',
      );
      const page = await service.fetch(service.url('/'), { headers: { accept: 'text/html' } });
      expect(await page.text()).not.toContain('id="watch-email"');
      const watch = await createWatch(service, { target });
      expect(watch.email).toBeNull();
      const patch = await send(service, 'PATCH', `/watch/v1/${watch.id}`, {
        key: watch.manage_key,
        body: { email: 'a@example.org' },
      });
      await expectError(patch, 422, 'email_unavailable');
    } finally {
      await service.close();
    }
  });

  it('retries a confirmation the SMTP server was not there for, at the confirmations’ delays', async () => {
    const port = await freePort();
    const service = await startTestService({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        ALERT_FROM: 'alerts@rep.example.org',
        PUBLIC_URL: publicUrl,
      },
      services: { watchRunner: { confirmRetryDelaysMs: [1500, 1500, 1500] } },
    });
    let inbox: SmtpInbox | undefined;
    try {
      await createWatch(service, { target, email: 'patient@example.org' });
      await until(
        async () => service.logs.some((line) => line.includes('e-mail delivery failed')),
        'the failed attempt',
      );
      inbox = await startSmtpInbox({ port });
      inbox.refuse(true);
      // The next attempt reaches a server that answers 451: failed again, and retried.
      await until(
        async () =>
          service.logs.filter((line) => line.includes('e-mail delivery failed')).length >= 2,
        'the refused attempt',
      );
      inbox.refuse(false);
      const [mail] = await inbox.waitFor(1);
      expect(mail!.envelope.to).toEqual(['patient@example.org']);
      const metrics = await (await service.fetch(service.rootUrl('/metrics'))).text();
      expect(metrics).toContain('reputation_watch_emails_total{outcome="sent"} 1');
      expect(metrics).toContain('reputation_watch_emails_total{outcome="failed"} 2');
      const failures = service.logs.filter((line) => line.includes('e-mail delivery failed'));
      expect(failures.map((line) => (JSON.parse(line) as { attempt: number }).attempt)).toEqual([
        1, 2,
      ]);
    } finally {
      await service.close();
      await inbox?.close();
    }
  }, 30_000);
});

describe('SMTP_URL and ALERT_FROM', () => {
  it.each([
    [
      { SMTP_URL: 'smtp://relay.example.org:587', PUBLIC_URL: publicUrl },
      'ALERT_FROM: required with SMTP_URL',
    ],
    [
      { SMTP_URL: 'smtp://relay.example.org:587', ALERT_FROM: 'a@example.org' },
      "PUBLIC_URL: required with SMTP_URL: e-mail links are built from it, never from a request's Host",
    ],
    [{ SMTP_URL: 'https://relay.example.org', ALERT_FROM: 'a@example.org' }, 'SMTP_URL'],
    [{ SMTP_URL: 'smtps://relay.example.org', ALERT_FROM: 'not an address' }, 'ALERT_FROM'],
  ])('refuses %j', (env, message) => {
    expect(() => readConfig({ STORE_URL: 'memory:', ...env })).toThrow(message);
  });

  it('reads smtps:// with credentials, and a display name in ALERT_FROM', () => {
    const config = readConfig({
      STORE_URL: 'memory:',
      SMTP_URL: 'smtps://user:p%40ss@relay.example.org:465',
      PUBLIC_URL: publicUrl,
      ALERT_FROM: 'Reputation <alerts@example.org>',
    });
    expect(config.watch.smtpUrl).toBe('smtps://user:p%40ss@relay.example.org:465');
    expect(config.watch.alertFrom).toBe('Reputation <alerts@example.org>');
  });
});
