import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import {
  encodeTlsaQuery,
  readTlsaAnswer,
  type TlsaLookup,
  type TlsaOutcome,
} from '../../dns/index.js';

/**
 * TLSA records (RFC 6698 §2) with the DNSSEC status the resolver reports, for DANE (RFC 7672):
 * the service's Resolver contract carries neither the TLSA type nor the AD bit, so the mail check
 * is given this lookup. The query and the reading of its answer are the DNS layer's
 * (src/dns/tlsa.ts, which the DoH lookup shares): AD set, asking the resolver to say whether it
 * validated (RFC 6840 §5.7), DO in EDNS0 (RFC 3225); the answer's AD bit is `authenticated`
 * (RFC 4035 §3.2.3). UDP first, TCP when the answer is truncated (RFC 7766 §5); the servers in
 * order until one answers; each exchange within `timeoutMs`, all of them within the check's signal.
 */

export interface DnsServerAddress {
  host: string;
  port: number;
  family: 4 | 6;
}

export interface TlsaLookupOptions {
  /** The resolvers the service asks (DNS_SERVERS, or the system's). */
  servers: readonly DnsServerAddress[];
  timeoutMs: number;
}

const timedOut = { status: 'timeout' } as const;

export function createTlsaLookup(options: TlsaLookupOptions): TlsaLookup {
  return async (name, signal) => {
    for (const server of options.servers) {
      if (signal.aborted) return timedOut;
      const answer = await askServer(server, name, options.timeoutMs, signal);
      if (answer.status !== 'timeout') return answer;
    }
    return timedOut;
  };
}

async function askServer(
  server: DnsServerAddress,
  name: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<TlsaOutcome> {
  const id = randomInt(0, 0x10000);
  const message = encodeTlsaQuery(name, id);
  const udp = await exchange(timeoutMs, signal, (done) => {
    const socket = createSocket(server.family === 6 ? 'udp6' : 'udp4');
    socket.on('error', () => done(undefined));
    socket.on('message', (response, peer) => {
      // RFC 5452 §3: only an answer from the server asked, to this ID, counts.
      if (
        peer.address === server.host &&
        peer.port === server.port &&
        response.readUInt16BE(0) === id
      ) {
        done(response);
      }
    });
    socket.send(message, server.port, server.host);
    return () => socket.close();
  });
  if (udp === undefined) return timedOut;
  const decoded = readTlsaAnswer(udp, name, id);
  if (decoded !== 'truncated') return decoded;
  const tcp = await exchange(timeoutMs, signal, (done) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: server.host, port: server.port });
    socket.on('error', () => done(undefined));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const bytes = Buffer.concat(chunks);
      if (bytes.length >= 2 && bytes.length >= 2 + bytes.readUInt16BE(0))
        done(bytes.subarray(2, 2 + bytes.readUInt16BE(0)));
    });
    const framed = Buffer.alloc(2 + message.length);
    framed.writeUInt16BE(message.length, 0);
    framed.set(message, 2);
    socket.write(framed);
    return () => socket.destroy();
  });
  if (tcp === undefined) return timedOut;
  const answer = readTlsaAnswer(tcp, name, id);
  return answer === 'truncated' ? { status: 'servfail' } : answer;
}

/** One exchange: `start` sends and calls `done` with the response; the bounds end it otherwise. */
function exchange(
  timeoutMs: number,
  signal: AbortSignal,
  start: (done: (response: Buffer | undefined) => void) => () => void,
): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    let stop = () => {};
    let settled = false;
    const done = (response: Buffer | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', aborted);
      stop();
      resolve(response);
    };
    const aborted = () => done(undefined);
    const timer = setTimeout(aborted, timeoutMs);
    signal.addEventListener('abort', aborted, { once: true });
    stop = start(done);
    if (signal.aborted) aborted();
  });
}
