import { createSocket, type Socket } from 'node:dgram';
import { encodeQuery, messageId, type Resolver, writeId } from '../src/dns/index.js';

/**
 * The least a DNS client on `node:dgram` can do per query, the floor `bench/transport-cpu.ts`
 * puts beside the UDP transport: 8 connected sockets used in turn, each query encoded and sent,
 * its answer matched by ID alone and answered `nxdomain` without a look at it. No question check,
 * no timer, no retry, no abort: a query whose answer never comes would wait forever.
 */
export async function openBareDgram(
  address: string,
): Promise<{ transport: Resolver; close(): void }> {
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
  const waiting = new Map<number, () => void>();
  for (const socket of sockets) {
    socket.on('message', (message: Buffer) => {
      const id = messageId(message);
      const answered = waiting.get(id);
      waiting.delete(id);
      answered?.();
    });
  }
  const nxdomain = { status: 'nxdomain' } as const;
  let nextId = 0;
  let turn = 0;
  return {
    transport: {
      query(name, type) {
        return new Promise((resolve) => {
          do nextId = (nextId + 1) & 0xffff;
          while (waiting.has(nextId));
          waiting.set(nextId, () => resolve(nxdomain));
          sockets[turn]!.send(writeId(encodeQuery(name, type, 0, 1232), nextId));
          turn = (turn + 1) % sockets.length;
        });
      },
    },
    close: () => sockets.forEach((socket) => socket.close()),
  };
}
