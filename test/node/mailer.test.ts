import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { issueCertificate } from '../../fixtures/mail-world.js';
import { type SmtpInbox, startSmtpInbox } from '../../fixtures/smtp-inbox.js';
import { createNodeMailer } from '../../src/node/mailer.js';
import { emailMessage } from '../../src/watch/email/index.js';

/**
 * The watches' e-mail on Node (docs/watches.md, "E-mail"): nodemailer on SMTP_URL, to smtp-server
 * relays on 127.0.0.1 that offer STARTTLS, or speak TLS from the first byte, on certificates of
 * the run's test CA (trusted through NODE_EXTRA_CA_CERTS, as an operator's extra CA would be),
 * with the credentials of the URL. `?tls.servername=` names the certificate's host, since the
 * relays listen on an address; a relay whose certificate is not trusted gets nothing.
 */

const ca = inject('mailCa');
const auth = { user: 'relay', pass: 'secret' };
let tls: { key: string; cert: string };
let starttls: SmtpInbox;
let implicit: SmtpInbox;

beforeAll(async () => {
  tls = await issueCertificate(ca, ['relay.test']);
  [starttls, implicit] = await Promise.all([
    startSmtpInbox({ auth, tls }),
    startSmtpInbox({ auth, tls, implicitTls: true }),
  ]);
});
afterAll(async () => {
  await starttls.close();
  await implicit.close();
});

const message = (to: string) =>
  emailMessage({
    from: 'Reputation <alerts@rep.example.org>',
    to,
    id: 'evt_AAAAAAAAAAAAAAAAAAAAAA',
    date: new Date('2026-11-27T12:00:00Z'),
    content: { subject: 'Тема', text: 'text part', html: '<p>html part</p>' },
  });

describe('e-mail on Node', () => {
  it.each([
    ['smtp:// with STARTTLS', () => starttls],
    ['smtps://', () => implicit],
  ])('sends over %s, authenticated, with the message as built', async (_name, inboxOf) => {
    const inbox = inboxOf();
    const sender = createNodeMailer(`${inbox.url}?tls.servername=relay.test`, 5000);
    expect(await sender.send(message('to@example.org'))).toEqual({ kind: 'sent' });
    const [mail] = await inbox.waitFor(1);
    expect(mail!.secure).toBe(true);
    expect(mail!.envelope).toEqual({ from: 'alerts@rep.example.org', to: ['to@example.org'] });
    expect(mail!.subject).toBe('Тема');
    expect(mail!.headers.get('message-id')).toBe('<evt_AAAAAAAAAAAAAAAAAAAAAA@rep.example.org>');
    expect(mail!.headers.get('date')).toBe('Fri, 27 Nov 2026 12:00:00 +0000');
    expect(mail!.headers.get('auto-submitted')).toBe('auto-generated');
    expect([mail!.text.trim(), mail!.html.trim()]).toEqual(['text part', '<p>html part</p>']);
  });

  it('fails, without sending, when the certificate is not for the name asked', async () => {
    const sender = createNodeMailer(`${implicit.url}?tls.servername=other.test`, 5000);
    const answer = await sender.send(message('nobody@example.org'));
    expect(answer.kind).toBe('failed');
    expect(implicit.received.map((mail) => mail.envelope.to[0])).not.toContain(
      'nobody@example.org',
    );
  });

  it('fails with a wrong password, and the reason never holds the password', async () => {
    const url = implicit.url.replace('relay:secret@', 'relay:n0t-th3-pa55@');
    const answer = await createNodeMailer(`${url}?tls.servername=relay.test`, 5000).send(
      message('nobody@example.org'),
    );
    expect(answer.kind).toBe('failed');
    expect(JSON.stringify(answer)).not.toContain('n0t-th3-pa55');
  });

  it('is tried at start: the relay passes connect, EHLO, STARTTLS and AUTH, or says why not', async () => {
    expect(
      await createNodeMailer(`${starttls.url}?tls.servername=relay.test`, 5000).verify!(),
    ).toEqual({ ok: true });
    const wrongName = await createNodeMailer(`${starttls.url}?tls.servername=other.test`, 5000)
      .verify!();
    expect(wrongName.ok).toBe(false);
    expect(wrongName.ok === false && wrongName.reason).toMatch(/other\.test|altnames/i);
    const wrongPassword = await createNodeMailer(
      `${implicit.url.replace('relay:secret@', 'relay:n0t-th3-pa55@')}?tls.servername=relay.test`,
      5000,
    ).verify!();
    expect(wrongPassword.ok).toBe(false);
    expect(JSON.stringify(wrongPassword)).not.toContain('n0t-th3-pa55');
  });

  it('calls a 5xx to the recipient permanent, a 4xx to the message not', async () => {
    const sender = createNodeMailer(`${starttls.url}?tls.servername=relay.test`, 5000);
    starttls.refuseRecipients(true);
    try {
      const refused = await sender.send(message('gone@example.org'));
      expect(refused).toMatchObject({ kind: 'failed', permanent: true });
    } finally {
      starttls.refuseRecipients(false);
    }
    starttls.refuse(true);
    try {
      expect(await sender.send(message('later@example.org'))).toMatchObject({
        kind: 'failed',
        permanent: false,
      });
    } finally {
      starttls.refuse(false);
    }
  });
});
