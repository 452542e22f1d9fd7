import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderEmail } from '../../src/watch/alerts/index.js';
import { emailLinks, emailMessage } from '../../src/watch/email/index.js';
import { createWorkersMailer } from '../../src/workers/mailer.js';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { type WorkerEnv, createEdgeApp } from '../../src/workers/app.js';
import { basePath } from '../support/harness.js';
import { startSmtpInbox, startTestService, startWorld } from './support/service.js';

/**
 * The watches' e-mail inside workerd (docs/edge.md, "E-mail on Workers"): worker-mailer speaks
 * SMTP over `cloudflare:sockets` to an smtp-server the fixture service runs on 127.0.0.1, with
 * the credentials of SMTP_URL, and the server takes an alert with its text and HTML parts and
 * the RFC 3834 and RFC 8058 headers; a port nothing listens on is a failed send, not a throw.
 * The Worker's app refuses `email` without SMTP_URL; with it, its runner sends the confirmation.
 */

let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
beforeAll(async () => {
  inbox = await startSmtpInbox({ auth: { user: 'relay user', pass: 'p@ss:word' } });
});
afterAll(() => inbox.close());

const pageUrl = 'https://rep.example.org/tools/ip-reputation/watch/v1/AAAAAAAAAAAAAAAAAAAAAA/share';

describe('e-mail on Workers', () => {
  it('sends an alert over cloudflare:sockets, with both parts and its headers', async () => {
    const unsubscribeUrl = emailLinks(pageUrl).unsubscribe('BBBBBBBBBBBBBBBBBBBBBB');
    const content = renderEmail({
      kind: 'alert',
      watch: { lang: 'ru' },
      state: undefined,
      unsubscribeUrl,
      event: {
        type: 'watch.delisted',
        created_at: new Date().toISOString(),
        data: {
          watch: {
            id: 'AAAAAAAAAAAAAAAAAAAAAA',
            target: '192.0.2.7',
            kind: 'ip',
            page_url: pageUrl,
            badge_url: `${pageUrl}/badge.svg`,
          },
          added: [],
          removed: [
            { zone: 'zen.spamhaus.org', name: 'Spamhaus ZEN', code: '127.0.0.2', meaning: 'SBL' },
          ],
          listed_on: [],
          verdict: 'good',
          score: 100,
        },
      },
    });
    const message = emailMessage({
      from: 'Reputation <alerts@rep.example.org>',
      to: 'someone@example.org',
      id: 'evt_CCCCCCCCCCCCCCCCCCCCCC',
      date: new Date(),
      content,
      unsubscribeUrl,
    });
    const sender = createWorkersMailer(inbox.url, 5000);
    expect(await sender.send(message)).toEqual({ kind: 'sent' });
    const [mail] = await inbox.received();
    expect(mail!.envelope).toEqual({ from: 'alerts@rep.example.org', to: ['someone@example.org'] });
    expect(mail!.subject).toBe('192.0.2.7: исключён из Spamhaus ZEN');
    expect(mail!.headers['message-id']).toBe('<evt_CCCCCCCCCCCCCCCCCCCCCC@rep.example.org>');
    expect(mail!.headers['auto-submitted']).toBe('auto-generated');
    expect(mail!.headers['list-unsubscribe']).toBe(`<${unsubscribeUrl}>`);
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail!.text).toContain('Spamhaus ZEN');
    expect(mail!.html).toContain(`href="${unsubscribeUrl}"`);
  });

  it('answers a failed send when nothing listens at SMTP_URL', async () => {
    const sender = createWorkersMailer('smtp://127.0.0.1:9', 2000);
    const answer = await sender.send(
      emailMessage({
        from: 'alerts@rep.example.org',
        to: 'someone@example.org',
        id: 'evt_DDDDDDDDDDDDDDDDDDDDDD',
        date: new Date(),
        content: { subject: 'test', text: 'test', html: '<p>test</p>' },
      }),
    );
    expect(answer).toMatchObject({ kind: 'failed', permanent: false });
  });

  it('calls a relay’s 550 to the recipient a permanent failure, as on Node', async () => {
    const refusing = await startSmtpInbox({ refuseRecipients: true });
    try {
      const answer = await createWorkersMailer(refusing.url, 5000).send(
        emailMessage({
          from: 'alerts@rep.example.org',
          to: 'gone@example.org',
          id: 'evt_EEEEEEEEEEEEEEEEEEEEEE',
          date: new Date(),
          content: { subject: 'test', text: 'test', html: '<p>test</p>' },
        }),
      );
      expect(answer).toMatchObject({ kind: 'failed', permanent: true });
    } finally {
      await refusing.close();
    }
  });

  it('refuses email with 422 email_unavailable without SMTP_URL, as on Node', async () => {
    const service = await startTestService();
    try {
      const response = await service.post('/watch/v1', {
        target: '8.8.100.9',
        email: 'a@example.org',
      });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { code: string }).code).toBe('email_unavailable');
    } finally {
      await service.close();
    }
  });

  it('sends a watch’s confirmation from the Worker’s runner, its link under PUBLIC_URL whatever the request said, and confirms by its POST', async () => {
    const world = await startWorld({});
    const workerEnv = {
      ...(env as unknown as WorkerEnv),
      DOH_URL: world.dohUrl,
      SMTP_URL: inbox.url,
      ALERT_FROM: 'alerts@rep.example.org',
      PUBLIC_URL: 'https://rep.example.org',
    };
    const edge = await createEdgeApp(workerEnv, {
      storePrefix: `${crypto.randomUUID()} `,
      logSink: () => {},
    });
    const call = async (path: string, init: RequestInit = {}) => {
      const request = new Request(path, init);
      request.headers.set('cf-connecting-ip', '127.0.0.1');
      const ctx = createExecutionContext();
      const response = await edge.fetch(request, workerEnv, ctx);
      await waitOnExecutionContext(ctx);
      return response;
    };
    try {
      // The request's host, and forwarded ones, are anyone's to forge: none reaches the message.
      const created = await call(`http://evil-host.test${basePath}/watch/v1`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-host': 'evil-xfh.test',
          forwarded: 'host=evil-forwarded.test;proto=http',
        },
        body: JSON.stringify({ target: '8.8.100.9', email: 'edge@example.org' }),
      });
      expect(created.status).toBe(201);
      expect(((await created.json()) as { email: unknown }).email).toEqual({
        address: 'edge@example.org',
        confirmed: false,
      });
      // What the watch clock's alarm runs: one tick of the runner, which sends the message.
      await edge.tickWatches();
      const mail = (await inbox.received()).find(
        (found) => found.envelope.to[0] === 'edge@example.org',
      );
      expect(mail?.subject).toBe('Confirm e-mail alerts for 8.8.100.9');
      expect(mail!.raw).not.toMatch(/evil-/);
      const link = /https?:\/\/\S+\/email\/confirm\?code=\S+/.exec(mail!.text)![0];
      expect(link.startsWith(`https://rep.example.org${basePath}/watch/v1/`)).toBe(true);
      expect(await (await call(link)).json()).toEqual({ email: 'unconfirmed' });
      expect(await (await call(link, { method: 'POST' })).json()).toEqual({ email: 'confirmed' });

      // Two more +tag variants of the mailbox are its second and third; a fourth is 429
      // email_limit with Retry-After, as every 429.
      const create = (email: string) =>
        call(`http://edge.test${basePath}/watch/v1`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ target: '8.8.100.9', email }),
        });
      expect((await create('edge+2@example.org')).status).toBe(201);
      expect((await create('Edge+3@example.org')).status).toBe(201);
      const refused = await create('e.d.g.e+4@example.org');
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { code: string }).code).toBe('email_limit');
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    } finally {
      await world.close();
    }
  }, 30_000);
});
