import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import dnsPacket from 'dns-packet';
import type { TlsaAnswer, TlsaLookup } from '../../reputation/index.js';

/**
 * TLSA records (RFC 6698 §2) with the DNSSEC status the resolver reports, for DANE (RFC 7672):
 * the service's Resolver contract carries neither the TLSA type nor the AD bit, so the mail check
 * is given this lookup. The query sets AD, asking the resolver to say whether it validated
 * (RFC 6840 §5.7), and DO in EDNS0 (RFC 3225); the answer's AD bit is `authenticated`
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

/** RFC 8467 §4.1 (DNS flag day 2020): the EDNS0 UDP size that avoids fragmentation. */
const udpPayloadSize = 1232;
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

function query(name: string, id: number): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id,
    flags: dnsPacket.RECURSION_DESIRED | dnsPacket.AUTHENTIC_DATA,
    questions: [{ type: 'TLSA', name }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: dnsPacket.DNSSEC_OK,
        flag_do: true,
        options: [],
      },
    ],
  });
}

async function askServer(
  server: DnsServerAddress,
  name: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<TlsaAnswer> {
  const id = randomInt(0, 0x10000);
  const message = query(name, id);
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
  const decoded = readAnswer(udp, name, id);
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
    message.copy(framed, 2);
    socket.write(framed);
    return () => socket.destroy();
  });
  if (tcp === undefined) return timedOut;
  const answer = readAnswer(tcp, name, id);
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

function readAnswer(bytes: Buffer, name: string, id: number): TlsaAnswer | 'truncated' {
  let packet: dnsPacket.DecodedPacket;
  try {
    packet = dnsPacket.decode(bytes);
  } catch {
    return { status: 'servfail' };
  }
  const flags = packet.flags ?? 0;
  const [question] = packet.questions ?? [];
  if (
    packet.id !== id ||
    question?.name.toLowerCase() !== name.toLowerCase() ||
    question.type !== 'TLSA'
  ) {
    return { status: 'servfail' };
  }
  if (flags & dnsPacket.TRUNCATED_RESPONSE) return 'truncated';
  const authenticated = (flags & dnsPacket.AUTHENTIC_DATA) !== 0;
  const rcode = flags & 0x0f;
  if (rcode === 3) return { status: 'nxdomain', authenticated };
  if (rcode === 5) return { status: 'refused' };
  if (rcode !== 0) return { status: 'servfail' };
  // The records of the name, or of the end of its CNAME chain in the answer (RFC 1034 §3.6.2).
  const owners = new Set([name.toLowerCase()]);
  for (const record of packet.answers ?? []) {
    if (record.type === 'CNAME' && owners.has(record.name.toLowerCase()))
      owners.add(String(record.data).toLowerCase());
  }
  const records = (packet.answers ?? [])
    .filter((record) => record.type === 'TLSA' && owners.has(record.name.toLowerCase()))
    .map((record) => {
      const data = (record as dnsPacket.TlsaAnswer).data;
      return {
        usage: data.usage,
        selector: data.selector,
        matching_type: data.matchingType,
        data: data.certificate.toString('hex'),
      };
    });
  return records.length === 0
    ? { status: 'nodata', authenticated }
    : { status: 'answer', records, authenticated };
}
