import { createSocket, type Socket } from 'node:dgram';
import { encodeQuery, messageId, type Resolver, writeId } from '../../src/dns/index.js';

/**
 * The least a DNS client on `node:dgram` can do per query, the floor `bench/experiments/transport-cpu.ts`
 * puts beside the UDP transport: 8 connected sockets used in turn, each query encoded and sent,
 * its answer matched by ID alone and answered `nxdomain` without a look at it. No question check,
 * no timer, no retry, no abort: a query whose answer never comes would wait forever. `exchange`
 * gives the answer's bytes instead, for a caller that must read one (section 2's ceiling reads
 * the PTR answer to ask its name's A record: bench/reference/dgram-ceiling.ts).
 */
export async function openBareDgram(address: string): Promise<{
  transport: Resolver;
  exchange(name: string, type: 'A' | 'PTR'): Promise<Buffer>;
  close(): void;
}> {
  const [host, port] = address.split(':') as [string, string];
  const sockets = await Promise.all(
    Array.from(
      { length: 8 },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = createSocket('udp4');
          socket.connect(Number(port), host, () => resolve(socket));
        }),
    ),
  );
  const waiting = new Map<number, (message: Buffer) => void>();
  for (const socket of sockets) {
    socket.on('message', (message: Buffer) => {
      const id = messageId(message);
      const answered = waiting.get(id);
      waiting.delete(id);
      answered?.(message);
    });
  }
  const nxdomain = { status: 'nxdomain' } as const;
  const answeredNxdomain = () => nxdomain;
  let nextId = 0;
  let turn = 0;
  function exchange(name: string, type: 'A' | 'PTR'): Promise<Buffer> {
    return new Promise((resolve) => {
      do nextId = (nextId + 1) & 0xffff;
      while (waiting.has(nextId));
      waiting.set(nextId, resolve);
      sockets[turn]!.send(writeId(encodeQuery(name, type, 0, 1232), nextId));
      turn = (turn + 1) % sockets.length;
    });
  }
  return {
    transport: {
      query: (name, type) => exchange(name, type as 'A' | 'PTR').then(answeredNxdomain),
    },
    exchange,
    close: () => sockets.forEach((socket) => socket.close()),
  };
}
