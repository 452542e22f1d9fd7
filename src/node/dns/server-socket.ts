import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { messageId } from '../../dns/index.js';
import type { BatchedSender, SendBatch } from './send-batch.js';
import type { ServerAddress } from './server-address.js';

/**
 * One long-lived UDP socket to one DNS server. It is connected to the server, so the kernel
 * delivers only the server's datagrams to it (and reports an ICMP unreachable as an error), and
 * bound by the kernel to a port of its choosing (RFC 5452 §9.2: Linux picks it at random from
 * the ephemeral range). Queries on it are told apart by their random IDs.
 */

/** Who waits for datagrams under an ID of this socket. */
export interface DatagramReceiver {
  /** A datagram from the server with the receiver's ID; the receiver checks its question. */
  received(message: Uint8Array, socket: ServerSocket): void;
  /** No answer will come to this socket: the server is unreachable, or the socket was lost. */
  unreachable(socket: ServerSocket): void;
  /** The socket is being closed (the transport stops): give up. */
  abort(): void;
}

/**
 * Errors that say the server cannot be reached: an ICMP port or host unreachable comes back on a
 * connected socket as the next receive's error. Others (a full send buffer) concern one datagram,
 * and its query simply times out.
 */
const unreachableCodes = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Asked for, not promised: Linux caps it at net.core.rmem_max (about 208 KB by default), which is
 * why a server gets several sockets (dgram-transport.ts).
 */
const receiveBufferBytes = 1024 * 1024;

/** IDs are 16 bits (RFC 1035 §4.1.1). */
const idCount = 0x10000;

export class ServerSocket implements BatchedSender {
  readonly #socket: Socket;
  readonly #pending = new Map<number, DatagramReceiver>();
  /** Datagrams sent before the socket is connected, sent once it is. */
  #waiting: Uint8Array[] | undefined = [];
  #remoteAddress = '';
  #remotePort = 0;
  #closed = false;
  #retired = false;

  /** `retired`: closes as soon as no query waits on it, as after `retire()`. */
  constructor(
    readonly server: ServerAddress,
    private readonly nextId: () => number,
    private readonly batch: SendBatch,
    retired = false,
  ) {
    this.#retired = retired;
    const socket = createSocket({
      type: server.family === 6 ? 'udp6' : 'udp4',
      recvBufferSize: receiveBufferBytes,
    });
    this.#socket = socket;
    socket.on('message', (message: Buffer, remote: RemoteInfo) => this.#message(message, remote));
    // Without a listener an 'error' would be thrown out of the event loop and end the process.
    socket.on('error', (error: NodeJS.ErrnoException) => this.#error(error));
    socket.on('close', () => this.#lost());
    socket.unref();
    socket.connect(server.port, server.host, (error?: Error) => this.#connected(error));
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Queries waiting on this socket. */
  get pending(): number {
    return this.#pending.size;
  }

  /** A random ID no query on this socket holds, now held by `receiver`. */
  register(receiver: DatagramReceiver): number {
    if (this.#pending.size >= idCount) throw new Error('every DNS ID of the socket is taken');
    let id = this.nextId();
    while (this.#pending.has(id)) id = this.nextId();
    this.#pending.set(id, receiver);
    return id;
  }

  unregister(id: number): void {
    this.#pending.delete(id);
    if (this.#retired && this.#pending.size === 0) this.close();
  }

  /** Sends with the other datagrams of this run of JavaScript (send-batch.ts). */
  send(message: Uint8Array): void {
    if (this.#closed) return;
    if (this.#waiting) this.#waiting.push(message);
    else this.batch.send(this, message);
  }

  /**
   * The batch's send: the socket may have closed since the datagram was queued. It runs in a
   * microtask, where a throw would end the process and lose the rest of the burst: a datagram
   * that cannot be sent is lost, as one the network drops, and its query times out and retries.
   */
  sendNow(message: Uint8Array): void {
    if (this.#closed) return;
    try {
      this.#socket.send(message);
    } catch {
      return;
    }
  }

  /** Takes no more queries: closes once those waiting are done. */
  retire(): void {
    this.#retired = true;
    if (this.#pending.size === 0) this.close();
  }

  /** Closes the socket; queries still waiting on it give up. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#waiting = undefined;
    for (const receiver of [...this.#pending.values()]) receiver.abort();
    this.#socket.close();
  }

  #connected(error: Error | undefined): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (this.#closed || !waiting) return;
    if (error) {
      // No route to the server's address family, say: nothing sent here will be answered.
      this.#closed = true;
      this.#socket.close();
      return;
    }
    const remote = this.#socket.remoteAddress();
    this.#remoteAddress = remote.address;
    this.#remotePort = remote.port;
    for (const message of waiting) this.#socket.send(message);
  }

  #message(message: Buffer, remote: RemoteInfo): void {
    // RFC 5452 §3: only the server asked may answer (the kernel already filters a connected socket).
    if (remote.port !== this.#remotePort || remote.address !== this.#remoteAddress) return;
    this.#pending.get(messageId(message))?.received(message, this);
  }

  #error(error: NodeJS.ErrnoException): void {
    if (unreachableCodes.has(error.code ?? '')) this.#unreachable();
  }

  #unreachable(): void {
    for (const receiver of [...this.#pending.values()]) receiver.unreachable(this);
  }

  /** The socket closed, by `close()` or otherwise: whoever still waits gets no answer here. */
  #lost(): void {
    this.#closed = true;
    this.#unreachable();
  }
}
