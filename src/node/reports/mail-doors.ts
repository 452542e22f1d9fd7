import type { Logger } from '../../lib/index.js';
import type { ReportIntake } from '../../reports/index.js';
import type { Store } from '../../store/index.js';
import { type ImapDoor, startImapDoor } from './imap-door.js';
import {
  type SmtpDoor,
  smtpDoorDefaults,
  startSmtpDoor,
  type SmtpDoorOptions,
} from './smtp-door.js';
import { readTlsPair } from './tls-files.js';

/**
 * The reports' mail doors of a Node server (docs/reports.md, "How reports come in"): the SMTP
 * listener when REPORTS_SMTP_PORT is set, the IMAP poller when REPORTS_IMAP_URL is, both over the
 * intake the upload route uses, started with the service and stopped before its stores close.
 */

export interface MailDoorsSettings {
  intake: ReportIntake;
  log: Logger;
  /** REPORTS_MAX_BYTES. */
  maxBytes: number;
  smtp?: Pick<SmtpDoorOptions, 'host' | 'port' | 'name' | 'clients' | 'clientOf'> & {
    /** REPORTS_TLS_CERT and REPORTS_TLS_KEY: read now, a bad file stops the start. */
    tlsFiles?: { cert: string; key: string };
  };
  imap?: {
    url: string;
    intervalMs: number;
    doneFolder: string;
    /** Under WORKERS=N: the store every process shares, where one of them claims each poll. */
    sharedStore?: Store;
    clock: () => Date;
  };
}

export interface MailDoors {
  smtp?: SmtpDoor;
  imap?: ImapDoor;
  /** Stops both: no new session or poll, and those under way end first. */
  stop(): Promise<void>;
}

export async function startMailDoors(settings: MailDoorsSettings): Promise<MailDoors> {
  const { intake, log, maxBytes } = settings;
  let smtp: SmtpDoor | undefined;
  if (settings.smtp) {
    const { tlsFiles, ...listener } = settings.smtp;
    smtp = await startSmtpDoor({
      ...listener,
      intake,
      log,
      maxBytes,
      ...(tlsFiles ? { tls: readTlsPair(tlsFiles) } : {}),
      maxConnections: smtpDoorDefaults.maxConnections,
      idleTimeoutMs: smtpDoorDefaults.idleTimeoutMs,
      closeGraceMs: smtpDoorDefaults.closeGraceMs,
    });
    log('info', 'reports smtp listening', {
      host: listener.host,
      port: smtp.port,
      tls: !!tlsFiles,
    });
  }
  let imap: ImapDoor | undefined;
  if (settings.imap) {
    const { sharedStore, clock, ...poll } = settings.imap;
    imap = startImapDoor({
      ...poll,
      intake,
      log,
      maxBytes,
      ...(sharedStore ? { claim: () => claimPoll(sharedStore, poll.intervalMs, clock) } : {}),
    });
  }
  return {
    ...(smtp ? { smtp } : {}),
    ...(imap ? { imap } : {}),
    async stop() {
      await Promise.all([smtp?.close(), imap?.stop()]);
    },
  };
}

/**
 * One process of several polls in each interval: the first to count the interval's key in the
 * shared store (atomic in SQLite and Redis alike) takes it; the key lives one interval.
 */
async function claimPoll(store: Store, intervalMs: number, clock: () => Date): Promise<boolean> {
  const slot = Math.floor(clock().getTime() / intervalMs);
  return (await store.incrementWithin(`reports:imap-poll:${slot}`, 1, intervalMs)) !== undefined;
}
