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
  takeConfirmationSend,
} from '../../src/watch/email/index.js';
import { hashOf, sameHash } from '../../src/watch/model/index.js';
import { spokenWait } from '../../src/watch/operations/email-confirmation.js';

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

describe('the daily limits on confirmation messages', () => {
  it('takes 3 per caller and 3 per address, a UTC day, and gives a caller its unit back', async () => {
    const store = createMemoryStore();
    const take = (caller: string, address: string, at = now) =>
      takeConfirmationSend(store, { caller, address }, hashing, at);
    for (let i = 0; i < 3; i++) expect(await take('caller-1', 'a@example.org')).toBeUndefined();
    // Four hours to the next UTC midnight.
    expect(await take('caller-2', 'A@example.org')).toBe(4 * 3600);
    expect(await take('caller-1', 'b@example.org')).toBe(4 * 3600);
    // caller-2 was refused for the address, not charged: three more of its own.
    for (const address of ['b@example.org', 'c@example.org', 'd@example.org']) {
      expect(await take('caller-2', address)).toBeUndefined();
    }
    expect(await take('caller-2', 'e@example.org')).toBeDefined();
    // A new UTC day starts the counts again.
    expect(await take('caller-1', 'a@example.org', now + 4 * 3600_000)).toBeUndefined();
    await store.close();
  });

  it.each([
    [16 * 3600, '16 h'],
    [4 * 3600 + 12 * 60, '4 h 12 min'],
    [4 * 3600 + 11 * 60 + 1, '4 h 12 min'],
    [59 * 60, '59 min'],
    [61, '2 min'],
    [40, '40 s'],
  ])('says a wait of %i s until the count starts again as %s', (seconds, spoken) => {
    expect(spokenWait(seconds)).toBe(spoken);
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
