import type { Server } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Logger } from '../../lib/index.js';
import type { IntakeOutcome, ReportIntake } from '../../reports/index.js';
import {
  failureReply,
  refusalReply,
  replyError,
  replyText,
  type SmtpReply,
  takenReply,
  tooManyConnections,
} from './smtp-replies.js';
import type { TlsPair } from './tls-files.js';

/**
 * The reports' SMTP door (docs/reports.md, "By SMTP"): a listener on REPORTS_SMTP_PORT that takes
 * mail for its inboxes' addresses only. RCPT TO asks the intake whether the address is an
 * inbox's, so mail for anyone else is refused before its data is sent and nothing is ever
 * relayed; the message is read while it comes, within REPORTS_MAX_BYTES (also announced in the
 * SIZE extension, RFC 1870), and its outcome is the reply to its data. No AUTH: the door takes
 * mail as an MX does. STARTTLS when a certificate is given, never required (RFC 3207 §4: a
 * publicly-referenced server must not require it). smtp-server (docs/decisions.md) speaks the
 * protocol; this file decides what is taken.
 */

export interface SmtpDoorOptions {
  intake: ReportIntake;
  host: string;
  /** 0: any free port (tests). */
  port: number;
  /** The name the greeting and EHLO give: REPORTS_ADDRESS's domain. */
  name: string;
  tls?: TlsPair;
  /** REPORTS_MAX_BYTES: the most one message may have. */
  maxBytes: number;
  /** Connections the door holds at once. */
  maxConnections: number;
  /** Counts each client's connections (src/node/client-connections.ts), capped per client. */
  clients: { open(client: string): boolean; close(client: string): void };
  /** The client a remote address counts as: an IPv4 address, an IPv6 /64. */
  clientOf(remoteAddress: string): string;
  /** A client that sends nothing for this long is told 421 and cut off. */
  idleTimeoutMs: number;
  /** At close, how long open sessions have to end before they are told 421 and cut off. */
  closeGraceMs: number;
  log: Logger;
}

export interface SmtpDoor {
  port: number;
  /** Stops listening and lets each open session end; cuts those still open after the grace. */
  close(): Promise<void>;
}

/**
 * Defaults: RFC 5321 §4.5.3.2.7 has a server wait 5 minutes for the next command; a message under
 * way at shutdown has 5 s to end (the server's whole stop takes 10 s at most, src/server.ts).
 */
export const smtpDoorDefaults = {
  maxConnections: 100,
  maxPerClient: 5,
  idleTimeoutMs: 300_000,
  closeGraceMs: 5000,
};

/**
 * RFC 5321 §4.5.3.1.8: a server must take at least 100 recipients; the 101st is told 452 and the
 * client sends it in a later transaction.
 */
const maxRecipients = 100;

export async function startSmtpDoor(options: SmtpDoorOptions): Promise<SmtpDoor> {
  const { intake, log } = options;
  /** The client each admitted session counts against, by session id. */
  const admitted = new Map<string, string>();

  const server = new SMTPServer({
    name: options.name,
    banner: 'reports',
    secure: false,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    // Without a certificate STARTTLS is not offered: smtp-server would use a built-in one.
    disabledCommands: options.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    authOptional: true,
    // The replies' text carries RFC 3463 codes chosen per refusal (smtp-replies.ts); with the
    // ENHANCEDSTATUSCODES keyword on, smtp-server would put one of its own per reply code first.
    hideENHANCEDSTATUSCODES: true,
    size: options.maxBytes,
    maxClients: options.maxConnections,
    maxRecipients,
    socketTimeout: options.idleTimeoutMs,
    // At close smtp-server tells the sessions still open 421 once this has passed, and cuts them.
    closeTimeout: options.closeGraceMs,
    // The client's name is not needed, and a look-up per connection would ask the machine's
    // resolver, outside the service's DNS rules.
    disableReverseLookup: true,
    logger: false,

    onConnect(session, callback) {
      const client = options.clientOf(session.remoteAddress);
      if (!options.clients.open(client)) {
        log('info', 'reports smtp connection refused', { client, reason: 'per_client' });
        return callback(replyError(tooManyConnections('client')));
      }
      admitted.set(session.id, client);
      callback();
    },

    onClose(session) {
      const client = admitted.get(session.id);
      if (client === undefined) return;
      admitted.delete(session.id);
      options.clients.close(client);
    },

    onRcptTo(address, _session, callback) {
      intake.accepts(address.address).then(
        (answer) => callback(answer.ok ? null : replyError(refusalReply(answer))),
        (error: unknown) => {
          log('error', 'reports smtp recipient check failed', { error: String(error) });
          callback(replyError(failureReply));
        },
      );
    },

    onData(stream, session, callback) {
      collectData(stream, options.maxBytes).then(
        async (message) => {
          const reply =
            message === undefined
              ? refusalReply({
                  code: 'report_too_large',
                  reason: `the message is larger than ${options.maxBytes} bytes (REPORTS_MAX_BYTES)`,
                })
              : await deliver(session, message);
          if (reply.code === 250) callback(null, replyText(reply));
          else callback(replyError(reply));
        },
        // The client went away in the middle of the message: nobody is left to answer.
        () => callback(),
      );
    },
  });

  /** The message to each recipient; 250 when an inbox took it, else the first refusal. */
  async function deliver(session: SMTPServerSession, message: Uint8Array): Promise<SmtpReply> {
    const taken: Extract<IntakeOutcome, { ok: true }>[] = [];
    let refused: SmtpReply | undefined;
    let failed = false;
    for (const { address } of session.envelope.rcptTo) {
      try {
        const outcome = await intake.mail(address, message, 'smtp');
        if (outcome.ok) {
          taken.push(outcome);
          log('info', 'reports taken by smtp', {
            inbox: outcome.inboxId,
            reports: outcome.received.length,
            duplicates: outcome.received.filter((report) => report.duplicate).length,
          });
        } else {
          refused ??= refusalReply(outcome);
          log('info', 'reports refused by smtp', { code: outcome.code, reason: outcome.reason });
        }
      } catch (error) {
        failed = true;
        log('error', 'reports smtp delivery failed', { error: String(error) });
      }
    }
    // A message taken by one inbox is answered 250 even when another refused it: a refusal
    // cannot be sent for one recipient alone after the data (RFC 5321 §3.3); it is logged.
    if (taken.length > 0) return takenReply(taken);
    return failed ? failureReply : refused!;
  }

  server.on('error', (error) => {
    // A client that resets the connection, or fails its TLS handshake, is one client's trouble.
    log('debug', 'reports smtp connection error', { error: String(error) });
  });
  const net = server.server as unknown as Server;
  const port = await new Promise<number>((resolve, reject) => {
    net.once('error', reject);
    server.listen(options.port, options.host, () => {
      net.off('error', reject);
      resolve((net.address() as { port: number }).port);
    });
  });

  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The message's bytes, or undefined when it passed `maxBytes`: past the bound the rest is read
 * and dropped (the client must reach the end of its data to hear the reply), so memory stays
 * within the bound whatever is sent.
 */
function collectData(
  stream: SMTPServerDataStream,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    stream.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length <= maxBytes) chunks.push(chunk);
      else chunks.length = 0;
    });
    stream.once('error', reject);
    stream.once('end', () =>
      resolve(length > maxBytes ? undefined : new Uint8Array(Buffer.concat(chunks, length))),
    );
  });
}
