import { ImapFlow } from 'imapflow';
import type { Logger } from '../../lib/index.js';
import {
  defaultReadLimits,
  type IntakeOutcome,
  readMessage,
  type ReportIntake,
  ReportReadError,
} from '../../reports/index.js';
import { type ImapMailbox, mailboxPlace, parseImapMailbox } from './imap-mailbox.js';

/**
 * The reports' IMAP door (docs/reports.md, "By IMAP"): every REPORTS_IMAP_INTERVAL_S the mailbox
 * of REPORTS_IMAP_URL is read, each message routed to its inbox by the first of its recipients
 * (Delivered-To, X-Original-To, To, Cc, as the reader lists them) that is an inbox's address, and
 * then moved out of the folder: to REPORTS_IMAP_DONE when taken in, to `Invalid` when it could not
 * be read, was refused, or was for no inbox. A message the service could not keep just now (its
 * store failing) stays where it is for the next poll. Folders missing are created. One poll at a
 * time; a poll's failure is logged and the next one tries again, never ending the service.
 * imapflow (docs/decisions.md) speaks IMAP.
 */

export interface ImapDoorOptions {
  intake: ReportIntake;
  /** REPORTS_IMAP_URL. */
  url: string;
  /** REPORTS_IMAP_INTERVAL_S, in ms. */
  intervalMs: number;
  /** REPORTS_IMAP_DONE. */
  doneFolder: string;
  /** REPORTS_MAX_BYTES: a larger message is moved to Invalid unread. */
  maxBytes: number;
  /**
   * Whether this process polls now: under WORKERS=N each interval's poll is claimed in the shared
   * store by one process. Always, when not given.
   */
  claim?: () => Promise<boolean>;
  log: Logger;
}

/** Where what could not be taken in goes. */
export const invalidFolder = 'Invalid';

/** What one poll did. */
export interface PollSummary {
  taken: number;
  invalid: number;
  /** Left in the folder for the next poll: the service could not keep them just now. */
  left: number;
}

export interface ImapDoor {
  /** Polls now, unless a poll is under way (then its summary); undefined when not claimed. */
  poll(): Promise<PollSummary | undefined>;
  /** Ends the timer and waits for a poll under way. */
  stop(): Promise<void>;
}

/** How long a connection may take to open, and to stay silent, before a poll gives up. */
const connectionTimeoutMs = 30_000;
const socketTimeoutMs = 120_000;

export function startImapDoor(options: ImapDoorOptions): ImapDoor {
  const mailbox = parseImapMailbox(options.url);
  const place = mailboxPlace(mailbox);
  const { log } = options;
  let running: Promise<PollSummary | undefined> | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  async function pollOnce(): Promise<PollSummary | undefined> {
    if (options.claim && !(await options.claim())) return undefined;
    const summary: PollSummary = { taken: 0, invalid: 0, left: 0 };
    const client = connectTo(mailbox, options.maxBytes);
    // A connection that fails after the poll (a server hanging up) is an 'error' event.
    client.on('error', (error: Error) =>
      log('debug', 'reports imap connection error', { error: error.message }),
    );
    await client.connect();
    try {
      for (const folder of [options.doneFolder, invalidFolder]) await client.mailboxCreate(folder);
      const lock = await client.getMailboxLock(mailbox.folder);
      try {
        const messages =
          client.mailbox && client.mailbox.exists > 0
            ? await client.fetchAll('1:*', { uid: true, size: true })
            : [];
        for (const { uid, size } of messages) {
          const destination = await route(client, uid, size ?? 0);
          if (destination === undefined) {
            summary.left++;
            continue;
          }
          await client.messageMove(String(uid), destination, { uid: true });
          if (destination === invalidFolder) summary.invalid++;
          else summary.taken++;
        }
      } finally {
        lock.release();
      }
    } finally {
      await client.logout().catch(() => client.close());
    }
    if (summary.taken + summary.invalid + summary.left > 0) {
      log('info', 'reports imap poll', { mailbox: place, ...summary });
    }
    return summary;
  }

  /** The folder a message goes to, or undefined to leave it for the next poll. */
  async function route(client: ImapFlow, uid: number, size: number): Promise<string | undefined> {
    if (size > options.maxBytes) {
      log('info', 'reports refused by imap', {
        uid,
        code: 'report_too_large',
        reason: `the message is ${size} bytes, more than REPORTS_MAX_BYTES (${options.maxBytes})`,
      });
      return invalidFolder;
    }
    const fetched = await client.fetchOne(String(uid), { source: true }, { uid: true });
    if (!fetched || !fetched.source) return undefined;
    const message = new Uint8Array(fetched.source);
    let recipients: string[];
    try {
      const read = await readMessage(message, { ...defaultReadLimits, maxBytes: options.maxBytes });
      recipients = read.recipients.map((recipient) => asWritten(message, recipient));
    } catch (error) {
      if (!(error instanceof ReportReadError)) throw error;
      log('info', 'reports refused by imap', { uid, code: error.code, reason: error.reason });
      return invalidFolder;
    }
    let outcome: IntakeOutcome | undefined;
    try {
      for (const recipient of recipients) {
        outcome = await options.intake.mail(recipient, message, 'imap');
        if (outcome.ok || outcome.code !== 'unknown_recipient') break;
      }
    } catch (error) {
      log('error', 'reports imap delivery failed', { uid, error: String(error) });
      return undefined;
    }
    if (outcome?.ok) {
      log('info', 'reports taken by imap', {
        uid,
        inbox: outcome.inboxId,
        reports: outcome.received.length,
        duplicates: outcome.received.filter((report) => report.duplicate).length,
      });
      return options.doneFolder;
    }
    log('info', 'reports refused by imap', {
      uid,
      code: outcome?.code ?? 'unknown_recipient',
      reason: outcome?.reason ?? 'the message names no recipient',
    });
    return invalidFolder;
  }

  function poll(): Promise<PollSummary | undefined> {
    running ??= pollOnce()
      .catch((error: unknown) => {
        log('error', 'reports imap poll failed', { mailbox: place, error: errorText(error) });
        return undefined;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => void poll().finally(schedule), options.intervalMs);
    timer.unref();
  }

  // The first poll at start: reports that came while the service was down are not kept waiting.
  void poll().finally(schedule);

  return {
    poll,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/**
 * A recipient as the message's header spells it. The reader lists recipients in lower case, but
 * an inbox's id, in the local part, is case-sensitive (RFC 5321 §2.4 leaves a local part's case
 * to its host): the spelling is taken back from the header section, where the address was read.
 */
function asWritten(message: Uint8Array, recipient: string): string {
  const text = new TextDecoder('latin1').decode(message);
  const end = text.search(/\r?\n\r?\n/);
  const header = end < 0 ? text : text.slice(0, end);
  const at = header.toLowerCase().indexOf(recipient);
  return at < 0 ? recipient : header.slice(at, at + recipient.length);
}

function connectTo(mailbox: ImapMailbox, maxBytes: number): ImapFlow {
  return new ImapFlow({
    host: mailbox.host,
    port: mailbox.port,
    secure: mailbox.secure,
    ...(mailbox.requireStartTls ? { doSTARTTLS: true } : {}),
    auth: { user: mailbox.user, pass: mailbox.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: connectionTimeoutMs,
    socketTimeout: socketTimeoutMs,
    // A server cannot make a poll hold more than about a message's bound in memory.
    maxLiteralSize: maxBytes + 64 * 1024,
    maxResponseSize: 2 * (maxBytes + 64 * 1024),
  });
}

/** An imapflow error with what the server said, when it said something. */
function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const said = (error as Error & { responseText?: string }).responseText;
  return said ? `${error.message}: ${said}` : error.message;
}
