import { type AttemptPolicy, attemptPolicy, createEndpointFailover } from '../../dns/index.js';
import { parseServerAddress, type ServerAddress } from './server-address.js';
import type { SendBatch } from './send-batch.js';
import { ServerSocket } from './server-socket.js';

/**
 * The servers a UDP query may go to (the configured ones, or a set a query names), their sockets,
 * and the rules their queries' attempts share: the timeout, the retries, and which server is
 * current (`src/dns/endpoint-failover.ts`: the first until an attempt to it fails).
 */

export function parseServers(servers: readonly string[]): ServerAddress[] {
  return servers.map((entry) => {
    const server = parseServerAddress(entry);
    if (!server) throw new Error(`not a DNS server address: ${entry}`);
    return server;
  });
}

export class ServerSet {
  readonly policy: AttemptPolicy;
  readonly #sockets: ServerSocket[][];
  readonly #turn: number[];
  #retired = false;

  constructor(
    readonly servers: readonly ServerAddress[],
    readonly socketsPerServer: number,
    options: { timeoutMs: number; retries: number },
    private readonly nextId: () => number,
    private readonly batch: SendBatch,
  ) {
    this.policy = attemptPolicy(options, createEndpointFailover(servers.length));
    this.#sockets = servers.map(() => []);
    this.#turn = servers.map(() => 0);
  }

  /** The next of the server's sockets in turn, opened when first needed or lost. */
  socketFor(endpoint: number): ServerSocket {
    const sockets = this.#sockets[endpoint]!;
    const turn = this.#turn[endpoint]!;
    this.#turn[endpoint] = (turn + 1) % this.socketsPerServer;
    let socket = sockets[turn];
    if (!socket || socket.closed) {
      // A retired set still serves the retries of its queries, and closes what it opens for them.
      socket = new ServerSocket(this.servers[endpoint]!, this.nextId, this.batch, this.#retired);
      sockets[turn] = socket;
    }
    return socket;
  }

  waiting(): number {
    return this.#sockets.flat().reduce((sum, socket) => sum + socket.pending, 0);
  }

  /** Closes each socket once its queries are done, and opens none that stays. */
  retire(): void {
    this.#retired = true;
    for (const socket of this.#sockets.flat()) socket.retire();
  }

  close(): void {
    for (const socket of this.#sockets.flat()) socket.close();
  }
}
