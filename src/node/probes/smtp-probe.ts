import { connect, isIP, type Socket } from 'node:net';
import { checkServerIdentity, connect as tlsConnect, type TLSSocket } from 'node:tls';
import {
  capacityShortage,
  notProbed,
  reachableBy,
  type SmtpProbe,
  type SmtpProber,
  type SmtpProbeRequest,
} from '../../reputation/index.js';
import { cleanThirdPartyText } from '../../lib/index.js';
import { certificateOf } from './certificate.js';
import { ReplyError, replyReader, type SmtpReply } from './smtp-reply.js';

/**
 * The mail check's SMTP probe on Node (docs/mail.md): one TCP connection to the exact address the
 * check resolved and judged reachable: the greeting, EHLO, STARTTLS (RFC 3207), the TLS handshake
 * with the MX host as SNI, the certificate read, QUIT. Never MAIL FROM or RCPT TO: nothing is
 * relayed or delivered. Each stage must end within `timeoutMs`; the check's signal ends it all.
 * The handshake is finished whatever the certificate, so the probe can say which names and which
 * dates it carries: Node's own verification (its trust store plus NODE_EXTRA_CA_CERTS, the dates,
 * RFC 6125's name rule) is read as its verdict (`socket.authorized`, `socket.authorizationError`)
 * instead of ending the handshake. That is safe only because nothing but QUIT is sent after it:
 * this is the one client of the service that does so, and every client that sends data verifies
 * (docs/mail.md, "MX hosts and the SMTP probe").
 */

export interface SmtpProbeOptions {
  /** PROBE_SMTP_PORT. */
  port: number;
  /** SMTP_TIMEOUT_MS: each stage's bound. */
  timeoutMs: number;
  /** The same rule the check applied: public, or in PROBE_ALLOW_NETWORKS. Checked again here. */
  reachable: (address: string) => boolean;
  /** The name the probe gives in EHLO (RFC 5321 §4.1.1.1: the client's own host name). */
  ehloName: string;
  /** Probes at once in this process; past it a probe is not made (service-wide bound). */
  maxConcurrent: number;
  now?: () => Date;
}

type Stage = NonNullable<SmtpProbe['stage']>;

class StageError extends Error {
  constructor(
    readonly status: 'timeout' | 'refused' | 'error',
    readonly stage: Stage,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The greeting's own bound: half a stage's, so a server that accepts and never greets (a tarpit)
 * holds a probe slot for half as long as one that answers slowly later on. RFC 5321 §4.5.3.2
 * lets a client wait 5 minutes for it; a probe is not delivering mail and keeps to its budget.
 */
export function greetingBoundMs(timeoutMs: number): number {
  return Math.max(1, Math.ceil(timeoutMs / 2));
}

export function createSmtpProber(options: SmtpProbeOptions): SmtpProber {
  let active = 0;
  const now = options.now ?? (() => new Date());
  return {
    async probe(request) {
      if (!reachableBy(options.reachable, request)(request.address)) {
        return notProbed(`${request.address} is not a public address`, request.address);
      }
      if (active >= options.maxConcurrent) {
        return notProbed(
          `${capacityShortage} (${active} probes at once): not a finding about this server; check again shortly`,
          request.address,
        );
      }
      active++;
      try {
        return await probeOnce(options, request, now);
      } finally {
        active--;
      }
    },
  };
}

async function probeOnce(
  options: SmtpProbeOptions,
  request: SmtpProbeRequest,
  now: () => Date,
): Promise<SmtpProbe> {
  const sockets: Socket[] = [];
  let stage: Stage = 'connect';
  let banner: string | null = null;
  let starttls: boolean | null = null;
  let abortStage: ((error: Error) => void) | undefined;
  const onAbort = () =>
    abortStage?.(new StageError('timeout', stage, 'the check’s probe deadline passed'));
  request.signal.addEventListener('abort', onAbort, { once: true });

  /** `work` within the stage's bound, the check's signal and the socket's errors. */
  const within = <T>(
    name: Stage,
    work: (fail: (error: Error) => void) => Promise<T>,
  ): Promise<T> => {
    stage = name;
    const boundMs = name === 'greeting' ? greetingBoundMs(options.timeoutMs) : options.timeoutMs;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new StageError('timeout', name, `no answer within ${boundMs} ms`)),
        boundMs,
      );
      const done = () => clearTimeout(timer);
      abortStage = (error) => {
        done();
        reject(error);
      };
      if (request.signal.aborted) onAbort();
      work(abortStage).then(
        (value) => {
          done();
          resolve(value);
        },
        (error: Error) => {
          done();
          reject(error);
        },
      );
    });
  };
  const base = () => ({ address: request.address, banner, starttls });

  try {
    const socket = await within('connect', (fail) => {
      const opened = connect({ host: request.address, port: options.port });
      sockets.push(opened);
      opened.on('error', (error: NodeJS.ErrnoException) => fail(socketError(error, stage)));
      opened.on('close', () =>
        fail(new StageError('error', stage, 'the server closed the connection')),
      );
      return new Promise<Socket>((resolve) => opened.once('connect', () => resolve(opened)));
    });
    const reader = replyReader(socket);
    const reply = (name: Stage) => within(name, () => reader.next());

    const greeting = await reply('greeting');
    // The server's words, cleaned where they enter (src/lib/third-party-text.ts): no control or
    // bidi character, a few hundred characters at most, whoever reads the result later.
    banner = cleanThirdPartyText(greeting.lines.join(' '));
    if (greeting.code !== 220) throw unexpected('greeting', greeting);
    socket.write(`EHLO ${options.ehloName}\r\n`);
    const ehlo = await reply('ehlo');
    // RFC 5321 §4.1.4: a server that refuses EHLO speaks plain SMTP (HELO), which has no STARTTLS.
    if (ehlo.code >= 500 && ehlo.code < 600) {
      starttls = false;
      quit(socket);
      return {
        status: 'no_starttls',
        stage: 'ehlo',
        ...base(),
        tls: null,
        certificate: null,
        detail: `EHLO refused (${ehlo.code}): a server without ESMTP offers no STARTTLS`,
      };
    }
    if (ehlo.code !== 250) throw unexpected('ehlo', ehlo);
    // RFC 3207 §4: the EHLO reply's keyword lines (after the first, the greeting line).
    starttls = ehlo.lines.slice(1).some((line) => /^STARTTLS\b/i.test(line.trim()));
    if (!starttls) {
      quit(socket);
      return {
        status: 'no_starttls',
        stage: 'ehlo',
        ...base(),
        tls: null,
        certificate: null,
        detail: 'the server does not offer STARTTLS: mail to it travels unencrypted',
      };
    }
    socket.write('STARTTLS\r\n');
    const ready = await reply('starttls');
    if (ready.code !== 220) throw unexpected('starttls', ready);
    // RFC 3207 §4.2: nothing read before the handshake counts; bytes a server (or a man in the
    // middle) sent after "220" are dropped, not taken as the answers of the TLS session.
    reader.detach();
    const secure = await within('tls', (fail) => {
      const tls = tlsConnect({
        socket,
        ...(isIP(request.host) === 0 ? { servername: request.host } : {}),
        // The handshake completes for any certificate, and Node's verdict on it is read below:
        // the probe sends QUIT and nothing else over it.
        rejectUnauthorized: false,
      });
      sockets.push(tls);
      tls.on('error', (error: NodeJS.ErrnoException) =>
        fail(
          new StageError('error', 'tls', `TLS handshake: ${cleanThirdPartyText(error.message)}`),
        ),
      );
      return new Promise<TLSSocket>((resolve) => tls.once('secureConnect', () => resolve(tls)));
    });
    const peer = secure.getPeerCertificate();
    // Node's verdict: the chain against its trust store, the dates, and (once those pass) the
    // name; the name is also checked here, since a chain Node refuses is never checked for it.
    const verdict = secure.authorized ? null : String(secure.authorizationError ?? 'not trusted');
    const certificate =
      certificateOf(peer, {
        verdict,
        nameMatches: checkServerIdentity(request.host, peer) === undefined,
        now: now(),
      }) ?? null;
    const cipher = secure.getCipher();
    const version = secure.getProtocol() ?? 'unknown';
    quit(secure);
    return {
      status: 'ok',
      stage: null,
      ...base(),
      tls: { version, cipher: cipher?.standardName ?? cipher?.name ?? 'unknown' },
      certificate,
      detail:
        certificate === null
          ? 'the server sent no certificate'
          : verdict === null
            ? null
            : `the certificate does not verify for ${request.host}: ${verdict}`,
    };
  } catch (error) {
    const failure =
      error instanceof StageError
        ? error
        : new StageError(
            'error',
            stage,
            cleanThirdPartyText(error instanceof ReplyError ? error.message : String(error)),
          );
    return {
      status: failure.status,
      stage: failure.stage,
      ...base(),
      tls: null,
      certificate: null,
      detail: `${failure.stage}: ${failure.message}`,
    };
  } finally {
    request.signal.removeEventListener('abort', onAbort);
    // The outermost first: a TLS socket destroys the connection under it, and destroying that
    // connection under a live TLS socket crashed Node 20 (a segmentation fault in the TLS wrap).
    const outermost = sockets[sockets.length - 1];
    outermost?.destroy();
  }
}

/** QUIT (RFC 5321 §4.1.1.10) and end; the 221 is not waited for. */
function quit(socket: Socket): void {
  if (socket.writable) socket.end('QUIT\r\n');
}

function unexpected(stage: Stage, reply: SmtpReply): StageError {
  const words = cleanThirdPartyText(reply.lines.join(' '), 200);
  return new StageError('error', stage, `${reply.code} ${words}`);
}

function socketError(error: NodeJS.ErrnoException, stage: Stage): StageError {
  if (error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET') {
    return new StageError(
      'refused',
      stage,
      `connection ${error.code === 'ECONNREFUSED' ? 'refused' : 'reset'}`,
    );
  }
  if (error.code === 'ETIMEDOUT')
    return new StageError('timeout', stage, 'no answer to the TCP handshake');
  return new StageError('error', stage, error.message);
}
