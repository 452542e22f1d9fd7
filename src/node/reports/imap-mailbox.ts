/**
 * REPORTS_IMAP_URL read (docs/reports.md, "By IMAP"): `imaps://user:password@host[:port]/FOLDER`,
 * the user and password percent-encoded (RFC 3986 §3.2.1), the folder polled the path (INBOX when
 * none). The credentials go to the server only over TLS: `imaps://` speaks it from the first byte
 * (RFC 8314 §3.3, port 993), `imap://` must upgrade with STARTTLS (RFC 9051 §6.2.1, port 143)
 * but on a loopback address, where nothing crosses a wire.
 */

export interface ImapMailbox {
  host: string;
  port: number;
  /** TLS from the first byte. */
  secure: boolean;
  /** Whether a cleartext connection must upgrade with STARTTLS before it logs in. */
  requireStartTls: boolean;
  user: string;
  password: string;
  folder: string;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function parseImapMailbox(text: string): ImapMailbox {
  const url = new URL(text);
  const secure = url.protocol === 'imaps:';
  if (!secure && url.protocol !== 'imap:') {
    throw new Error('REPORTS_IMAP_URL is not an imaps:// or imap:// URL');
  }
  const path = decodeURIComponent(url.pathname.replace(/^\//, ''));
  return {
    // A bracketed IPv6 literal is connected to without its brackets.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (secure ? 993 : 143) : Number(url.port),
    secure,
    requireStartTls: !secure && !isLoopback(url.hostname),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    folder: path === '' ? 'INBOX' : path,
  };
}

/** Where the mailbox is, for the logs: never its credentials. */
export function mailboxPlace(mailbox: ImapMailbox): string {
  return `${mailbox.secure ? 'imaps' : 'imap'}://${mailbox.host}:${mailbox.port}/${mailbox.folder}`;
}
