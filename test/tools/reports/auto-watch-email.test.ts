import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpInbox, startSmtpInbox } from '../../../fixtures/smtp-inbox.js';
import { startTestService, type TestService } from '../../support/service.js';
import {
  autoWatchOf,
  dateBefore,
  domain,
  patchAutoWatch,
  until,
  uploadRows,
  watchedIps,
  world,
} from './auto-watch-support.js';
import { type CreatedInbox, createInbox } from './support.js';

/**
 * An inbox's auto_watch with an address (docs/reports.md, "Reports meet watches"), over real HTTP
 * and a real SMTP server on 127.0.0.1: the address is sent one confirmation for the inbox and
 * nothing else before its link is followed; then the failing source is e-mailed once with its
 * one-click link (RFC 8058), which stops the address for the inbox.
 */

const publicUrl = 'https://rep.example.org';
const address = 'postmaster@example.org';
const passing = '8.8.100.41';
const failing = '8.8.100.45';

/** The first URL in a text whose path holds `part`, as the test service on 127.0.0.1 answers it. */
function localLink(service: TestService, text: string, part: string): string {
  const url = text.match(/https?:\/\/\S+/g)?.find((found) => found.includes(part));
  if (!url?.startsWith(`${publicUrl}/`))
    throw new Error(`no ${part} link under PUBLIC_URL: ${text}`);
  return service.rootUrl(url.slice(publicUrl.length));
}

describe('auto_watch with an e-mail address', () => {
  let smtp: SmtpInbox;
  let service: TestService;
  let inbox: CreatedInbox;

  beforeAll(async () => {
    smtp = await startSmtpInbox();
    service = await startTestService({
      env: {
        STORE_URL: 'memory:',
        SMTP_URL: smtp.url,
        ALERT_FROM: 'alerts@rep.example.org',
        PUBLIC_URL: publicUrl,
        WATCH_MIN_INTERVAL_S: '1',
        WATCH_INTERVAL_S: '1',
      },
      world: world(),
      services: { autoWatch: { debounceMs: 100 } },
    });
    inbox = await createInbox(service, { domain });
  });
  afterAll(async () => {
    await service?.close();
    await smtp?.close();
  });

  it('confirms the address once for the inbox, mails the failing source once, and stops at its one-click link', async () => {
    await uploadRows(service, inbox, dateBefore(Date.now(), 2), [
      { ip: passing, count: 300, dkim: true, spf: true },
      { ip: failing, count: 150 },
    ]);
    const answer = await patchAutoWatch(service, inbox, { email: address, min_messages: 100 });
    expect(answer.email_confirmed).toBe(false);

    const [confirmation] = await smtp.waitFor(1);
    expect(confirmation!.envelope.to).toEqual([address]);
    expect(confirmation!.subject).toContain(domain);
    // The source is watched at once, but nothing but the confirmation goes to the address yet.
    await until(async () => (await watchedIps(service, inbox)).includes(passing), 'a watch');
    expect((await autoWatchOf(service, inbox)).email).toEqual({ address, state: 'unconfirmed' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received).toHaveLength(1);

    const confirm = localLink(service, confirmation!.text, '/email/confirm?code=');
    expect(confirm).toContain(`/reports/v1/${inbox.id}/email/confirm?code=`);
    expect((await service.fetch(confirm, { method: 'POST' })).status).toBe(200);
    expect((await autoWatchOf(service, inbox)).email).toEqual({ address, state: 'confirmed' });

    const [, notice] = await smtp.waitFor(2);
    expect(notice!.subject).toBe(`${failing} fails DMARC for ${domain}`);
    expect(notice!.text).toContain(inbox.view_url);
    expect(notice!.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // Once: a later run of the inbox (new reports) does not announce it again.
    await uploadRows(service, inbox, dateBefore(Date.now(), 1), [{ ip: failing, count: 150 }]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.received.filter((mail) => mail.subject.includes(failing))).toHaveLength(1);

    const unsubscribe = localLink(service, notice!.text, '/email/unsubscribe?code=');
    const form = new FormData();
    form.set('List-Unsubscribe', 'One-Click');
    expect((await service.fetch(unsubscribe, { method: 'POST', body: form })).status).toBe(200);
    expect((await autoWatchOf(service, inbox)).email).toEqual({ address, state: 'unsubscribed' });
  });
});
