import { describe, expect, it } from 'vitest';
import { mailboxPlace, parseImapMailbox } from '../../../src/node/reports/imap-mailbox.js';

/** REPORTS_IMAP_URL read: where, as whom, which folder, and whether TLS is a must. */

describe('parseImapMailbox', () => {
  it.each([
    [
      'imaps://reports:s3cret@imap.example.org/INBOX',
      {
        host: 'imap.example.org',
        port: 993,
        secure: true,
        requireStartTls: false,
        user: 'reports',
        password: 's3cret',
        folder: 'INBOX',
      },
    ],
    [
      'imap://dmarc%40example.org:p%40ss%3Aw%2Frd@imap.example.org:1143/Reports%20in',
      {
        host: 'imap.example.org',
        port: 1143,
        secure: false,
        requireStartTls: true,
        user: 'dmarc@example.org',
        password: 'p@ss:w/rd',
        folder: 'Reports in',
      },
    ],
    [
      'imap://reports:x@127.0.0.1',
      {
        host: '127.0.0.1',
        port: 143,
        secure: false,
        requireStartTls: false,
        user: 'reports',
        password: 'x',
        folder: 'INBOX',
      },
    ],
    [
      'imaps://reports:x@[2001:db8::1]/Archive/DMARC',
      {
        host: '2001:db8::1',
        port: 993,
        secure: true,
        requireStartTls: false,
        user: 'reports',
        password: 'x',
        folder: 'Archive/DMARC',
      },
    ],
  ])('reads %s', (url, mailbox) => {
    expect(parseImapMailbox(url)).toEqual(mailbox);
  });

  it('says where the mailbox is without its credentials', () => {
    expect(mailboxPlace(parseImapMailbox('imaps://reports:s3cret@imap.example.org/INBOX'))).toBe(
      'imaps://imap.example.org:993/INBOX',
    );
  });
});
