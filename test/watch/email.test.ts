import { describe, expect, it } from 'vitest';
import { webCrypto } from '../../src/platform.js';
import { createMemoryStore } from '../../src/store/index.js';
import {
  checkConfirmCode,
  emailLinks,
  type Hashing,
  isUnsubscribeCode,
  maskEmail,
  emailMessage,
  newEmail,
  parseEmailAddress,
  parseMailbox,
  mailboxOf,
  maskAddressesIn,
  takeConfirmationAllowance,
  giveBackAllowance,
} from '../../src/watch/email/index.js';
import { hashOf, sameHash } from '../../src/watch/model/index.js';

/** The e-mail rules as pure functions (docs/watches.md, "E-mail"), over the memory store. */

const hashing: Hashing = { hashOf: (text) => hashOf(text, webCrypto.digest), sameHash };
const now = Date.parse('2026-11-27T20:00:00Z');

describe('an e-mail address', () => {
  it.each([
    ['postmaster@example.org', 'postmaster@example.org'],
    [' Jane.Doe+alerts@Mail.Example.ORG ', 'Jane.Doe+alerts@mail.example.org'],
    ["o'brien@example.org.", "o'brien@example.org"],
  ])('takes %j as %j', (text, address) => {
    expect(parseEmailAddress(text)).toEqual({ ok: true, address });
  });

  it.each([
    'plain',
    '@example.org',
    'a@',
    'a@localhost',
    'a@printer.local',
    'a@example',
    'a..b@example.org',
    '.a@example.org',
    '"a b"@example.org',
    'a@[192.0.2.1]',
    'a@exa_mple.org',
    'a@-example.org',
    'a\r\nBcc: x@example.org',
    `${'x'.repeat(65)}@example.org`,
    `a@${Array.from({ length: 5 }, () => 'b'.repeat(60)).join('.')}.org`,
  ])('refuses %j', (text) => {
    expect(parseEmailAddress(text).ok).toBe(false);
  });

  it('is masked to its first character and its domain', () => {
    expect(maskEmail('postmaster@example.org')).toBe('p***@example.org');
    expect(maskEmail('a@example.org')).toBe('a***@example.org');
  });

  it('reads ALERT_FROM with or without a display name', () => {
    expect(parseMailbox('alerts@example.org')).toEqual({ address: 'alerts@example.org' });
    expect(parseMailbox('Reputation Tools <alerts@example.org>')).toEqual({
      address: 'alerts@example.org',
      name: 'Reputation Tools',
    });
    expect(parseMailbox('Reputation <not an address>')).toBeUndefined();
  });
});

describe('double opt-in codes', () => {
  const random = webCrypto.randomBytes;

  it('confirms with the code within 24 hours, never after, never with another', async () => {
    const { email, code } = await newEmail('a@example.org', random, hashing, now);
    expect(email).toMatchObject({ address: 'a@example.org', confirmed: false });
    expect(email.code_hash).not.toContain(code);
    expect(JSON.stringify(email)).not.toContain(code);
    expect(await checkConfirmCode(email, code, hashing, now + 86_399_000)).toBe('ok');
    expect(await checkConfirmCode(email, code, hashing, now + 86_400_000)).toBe('expired');
    expect(await checkConfirmCode(email, `${code}x`, hashing, now)).toBe('wrong');
    expect(await checkConfirmCode(null, code, hashing, now)).toBe('wrong');
    expect(await checkConfirmCode({ ...email, confirmed: true }, code, hashing, now)).toBe(
      'confirmed',
    );
  });

  it('keeps the unsubscribe code through a new link, and checks it as hashes', async () => {
    const first = await newEmail('a@example.org', random, hashing, now);
    const again = await newEmail('a@example.org', random, hashing, now, first.email.unsubscribe);
    expect(again.email.unsubscribe).toBe(first.email.unsubscribe);
    expect(again.code).not.toBe(first.code);
    expect(await isUnsubscribeCode(again.email, first.email.unsubscribe, hashing)).toBe(true);
    expect(await isUnsubscribeCode(again.email, again.code, hashing)).toBe(false);
  });
});

describe('the daily allowances of confirmation messages', () => {
  const asker = (watch: string, caller: string, network?: string) => ({ watch, caller, network });

  it.each([
    ['Jane.Doe+alerts@example.org', 'janedoe@example.org'],
    ['JANEDOE@Example.ORG', 'janedoe@example.org'],
    ['j.a.n.e.d.o.e+x+y@example.org', 'janedoe@example.org'],
    ['+only-a-tag@example.org', '+only-a-tag@example.org'],
    ['...@example.org', '...@example.org'],
  ])('counts %s as the mailbox %s', (address, mailbox) => {
    expect(mailboxOf(address)).toBe(mailbox);
  });

  it('takes 3 a UTC day per watch whoever asks, per mailbox with its +tag and dot variants, and per caller', async () => {
    const store = createMemoryStore();
    const take = (who: ReturnType<typeof asker>, address: string, at = now) =>
      takeConfirmationAllowance(store, { ...who, address }, hashing, at, 1000);
    // One watch, three callers, three mailboxes: three messages, then the watch's bound.
    for (const [caller, address] of [
      ['caller-1', 'a@example.org'],
      ['caller-2', 'b@example.org'],
      ['caller-3', 'c@example.org'],
    ]) {
      expect((await take(asker('watch-1', caller!), address!)).ok).toBe(true);
    }
    expect(await take(asker('watch-1', 'caller-4'), 'd@example.org')).toEqual({
      ok: false,
      bound: 'watch',
      retryAfterS: 4 * 3600,
    });
    // One mailbox through +tag and dot variants, from other watches and callers.
    for (const [i, address] of [
      'x.y+1@example.org',
      'xy+2@example.org',
      'X.Y@example.org',
    ].entries()) {
      expect((await take(asker(`watch-${10 + i}`, `caller-${10 + i}`), address)).ok).toBe(true);
    }
    expect((await take(asker('watch-20', 'caller-20'), 'x.y+3@example.org')).ok).toBe(false);
    // The refused message took nothing: caller-20 and watch-20 still have their three.
    for (const address of ['e@example.org', 'f@example.org', 'g@example.org']) {
      expect((await take(asker('watch-20', 'caller-20'), address)).ok).toBe(true);
    }
    expect(await take(asker('watch-21', 'caller-20'), 'h@example.org')).toMatchObject({
      ok: false,
      bound: 'caller',
    });
    // A new UTC day starts the counts again.
    expect((await take(asker('watch-1', 'caller-4'), 'd@example.org', now + 4 * 3600_000)).ok).toBe(
      true,
    );
    await store.close();
  });

  it('takes 12 a day per network and the service’s own daily total, and gives units back', async () => {
    const store = createMemoryStore();
    const take = (i: number, network: string | undefined, perDay = 1000) =>
      takeConfirmationAllowance(
        store,
        { watch: `w-${i}`, caller: `c-${i}`, network, address: `m${i}@example.org` },
        hashing,
        now,
        perDay,
      );
    for (let i = 0; i < 12; i++) expect((await take(i, 'net-1')).ok).toBe(true);
    expect(await take(12, 'net-1')).toMatchObject({ ok: false, bound: 'network' });
    // A subsystem's owner has no network: only the other bounds count it.
    expect((await take(13, undefined)).ok).toBe(true);
    // The service's total: 13 taken so far (the network's refusal took none).
    expect(await take(14, 'net-2', 13)).toMatchObject({ ok: false, bound: 'service' });
    const taken = await take(15, 'net-2', 14);
    if (!taken.ok) throw new Error('refused');
    expect((await take(16, 'net-2', 14)).ok).toBe(false);
    // A message never sent gives its units back: the 14th place is free again.
    await giveBackAllowance(store, taken.taken, now);
    expect((await take(16, 'net-2', 14)).ok).toBe(true);
    await store.close();
  });
});

describe('a relay’s reason for a failure', () => {
  it('has every address in it masked', () => {
    expect(
      maskAddressesIn(
        "Can't send mail - all recipients were rejected: 550 5.1.1 <bob.smith+x@example.org>: Recipient address rejected",
      ),
    ).toBe(
      "Can't send mail - all recipients were rejected: 550 5.1.1 <b***@example.org>: Recipient address rejected",
    );
    expect(maskAddressesIn('Invalid RCPT TO: <a@b.example> NOTIFY=NEVER 550 no')).toBe(
      'Invalid RCPT TO: <a***@b.example> NOTIFY=NEVER 550 no',
    );
    expect(maskAddressesIn('connect ECONNREFUSED 127.0.0.1:25')).toBe(
      'connect ECONNREFUSED 127.0.0.1:25',
    );
  });
});

describe('a message on the wire', () => {
  it('carries Auto-Submitted always, and the RFC 8058 headers with an unsubscribe URL', () => {
    const page = 'https://rep.example.org/tools/ip-reputation/watch/v1/abc/share';
    const links = emailLinks(page);
    expect(links.confirm('c0de')).toBe(
      'https://rep.example.org/tools/ip-reputation/watch/v1/abc/email/confirm?code=c0de',
    );
    const content = { subject: 's', text: 't', html: '<p>t</p>' };
    const base = { to: 'a@example.org', id: 'evt_x', date: new Date(now), content };
    const confirmation = emailMessage({ ...base, from: 'Rep <alerts@rep.example.org>' });
    expect(confirmation.messageId).toBe('<evt_x@rep.example.org>');
    expect(confirmation.headers).toEqual({
      'Auto-Submitted': 'auto-generated',
      'X-Auto-Response-Suppress': 'All',
    });
    const alert = emailMessage({
      ...base,
      from: 'alerts@rep.example.org',
      unsubscribeUrl: links.unsubscribe('u'),
    });
    expect(alert.headers['List-Unsubscribe']).toBe(`<${links.unsubscribe('u')}>`);
    expect(alert.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  });
});
