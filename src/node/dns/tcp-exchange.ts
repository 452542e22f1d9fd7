import { connect } from 'node:net';
import type { AttemptFailure } from '../../dns/index.js';
import type { ServerAddress } from './server-address.js';

/** Who waits for a query sent over TCP. */
export interface TcpReceiver {
  answeredOverTcp(result: Uint8Array | AttemptFailure): void;
}

/** RFC 1035 §4.2.2, RFC 7766 §8: over TCP each message is preceded by its length in two octets. */
const lengthBytes = 2;

/**
 * One query over TCP, on a connection of its own closed once the answer is in: the answer that
 * did not fit a UDP datagram (TC, RFC 1035 §4.2.1). With EDNS0 a UDP answer holds 1232 octets,
 * so this is rare, and no connection is kept for the next. Returns how to give the query up.
 */
export function exchangeOverTcp(
  server: ServerAddress,
  query: Uint8Array,
  receiver: TcpReceiver,
): () => void {
  const socket = connect({ host: server.host, port: server.port, noDelay: true });
  // The query's attempt timer holds the process while it waits, not this connection.
  socket.unref();
  const chunks: Buffer[] = [];
  let received = 0;
  let done = false;
  const finish = (result: Uint8Array | AttemptFailure) => {
    if (done) return;
    done = true;
    socket.destroy();
    receiver.answeredOverTcp(result);
  };
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    received += chunk.length;
    if (received < lengthBytes) return;
    const bytes = chunks.length === 1 ? chunk : Buffer.concat(chunks, received);
    const length = bytes.readUInt16BE(0);
    if (received >= lengthBytes + length) {
      finish(bytes.subarray(lengthBytes, lengthBytes + length));
    } else if (chunks.length > 1) {
      chunks.length = 0;
      chunks.push(bytes);
    }
  });
  // A refused or reset connection is no answer; one closed halfway through a message a bad one.
  socket.on('error', () => finish('no-answer'));
  socket.on('close', () => finish(received > 0 ? 'bad-answer' : 'no-answer'));
  const framed = Buffer.allocUnsafe(lengthBytes + query.length);
  framed.writeUInt16BE(query.length, 0);
  framed.set(query, lengthBytes);
  socket.write(framed);
  return () => {
    if (done) return;
    done = true;
    socket.destroy();
  };
}
