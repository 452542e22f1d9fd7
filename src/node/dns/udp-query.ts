import {
  type OutcomeListener,
  PendingQuery,
  readResponse,
  type RecordData,
  type RecordType,
  writeId,
} from '../../dns/index.js';
import type { ServerSet } from './server-set.js';
import type { DatagramReceiver, ServerSocket } from './server-socket.js';
import { exchangeOverTcp, type TcpReceiver } from './tcp-exchange.js';

/**
 * One query of the UDP transport, from its first datagram to its outcome: sent under a random ID
 * of a socket to the current server, its answer checked against the question (RFC 5452 §3), asked
 * again over TCP when truncated; the attempts, retries and abort are `PendingQuery`'s.
 */

/** Where a query was sent before its attempt moved to another server: an answer there still counts. */
interface EarlierSend {
  socket: ServerSocket;
  id: number;
  message: Uint8Array;
}

export class UdpQuery<T extends RecordType>
  extends PendingQuery<RecordData[T]>
  implements DatagramReceiver, TcpReceiver
{
  #socket: ServerSocket | undefined;
  #id = 0;
  #earlier: EarlierSend[] | undefined;
  #overTcp = false;
  #cancelTcp: (() => void) | undefined;

  constructor(
    private readonly set: ServerSet,
    signal: AbortSignal | undefined,
    listener: Pick<OutcomeListener<RecordData[T]>, 'answered'>,
    /** The query as encoded, under the ID of `#socket` once sent. */
    private message: Uint8Array,
    private readonly name: string,
    private readonly type: T,
  ) {
    super(set.policy, signal, listener);
  }

  protected send(endpoint: number): void {
    const server = this.set.servers[endpoint]!;
    if (this.#overTcp) {
      this.#cancelTcp = exchangeOverTcp(server, this.message, this);
      return;
    }
    let socket = this.#socket;
    // A retry to the same server goes out again under the same ID, so a late answer to the first
    // still counts; another server's socket gives the query an ID of its own.
    if (!socket || socket.closed || socket.server !== server) {
      if (socket) {
        (this.#earlier ??= []).push({ socket, id: this.#id, message: this.message });
        this.message = this.message.slice();
      }
      socket = this.set.socketFor(endpoint);
      this.#socket = socket;
      this.#id = socket.register(this);
      writeId(this.message, this.#id);
    }
    socket.send(this.message);
  }

  received(response: Uint8Array, socket: ServerSocket): void {
    const query =
      socket === this.#socket
        ? this.message
        : this.#earlier?.find((sent) => sent.socket === socket)?.message;
    if (!query) return;
    const reading = readResponse(query, response, this.name, this.type);
    switch (reading) {
      case 'mismatch':
        // RFC 5452 §3: not the answer to this query (a forged or stray one); the answer may still come.
        return;
      case 'truncated':
        // RFC 1035 §4.2.1, RFC 7766 §5: the whole answer over TCP, within the same attempt's time.
        if (!this.#overTcp) {
          this.#overTcp = true;
          this.#cancelTcp = exchangeOverTcp(this.set.servers[this.endpoint]!, this.message, this);
        }
        return;
      case 'malformed':
        this.failed('bad-answer');
        return;
      default:
        this.settle(reading);
    }
  }

  answeredOverTcp(result: Uint8Array | 'no-answer' | 'bad-answer'): void {
    this.#cancelTcp = undefined;
    if (typeof result === 'string') {
      this.failed(result);
      return;
    }
    const reading = readResponse(this.message, result, this.name, this.type);
    // On its own connection, anything but the answer is a broken server.
    if (typeof reading === 'string') this.failed('bad-answer');
    else this.settle(reading);
  }

  unreachable(socket: ServerSocket): void {
    if (!this.#overTcp && socket === this.#socket) this.failed('no-answer');
  }

  protected abandonAttempt(): void {
    // The UDP sends keep their IDs until the query ends: a late answer to them still counts.
    this.#cancelTcp?.();
    this.#cancelTcp = undefined;
  }

  protected release(): void {
    this.abandonAttempt();
    this.#socket?.unregister(this.#id);
    for (const sent of this.#earlier ?? []) sent.socket.unregister(sent.id);
  }
}
