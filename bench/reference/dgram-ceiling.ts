import dnsPacket from 'dns-packet';
import { reverseName, targetLabel } from '../../src/reputation/index.js';
import { openBareDgram } from './bare-dgram.js';

/**
 * Section 2's ceiling (docs/benchmarks.md): the DNS work of one uncached check, every IP zone's A
 * query in parallel with PTR then the PTR name's A, fanned out by the least a client on
 * `node:dgram` does (bench/reference/bare-dgram.ts: 8 connected sockets, answers matched by ID
 * alone), which reads only the PTR answer, to ask its name's A record. The service asks the same
 * questions through the same `node:dgram` and does more per query (the question check, timers,
 * retries, the cache, the in-flight cap) and per check (HTTP, the engine, the score, the store): it
 * cannot do more checks a second at the same concurrency. The previous ceiling was the service's
 * own resolver stack, which bounded the service by a part of itself.
 */

export interface DgramCeiling {
  /** Resolves when every query of one check has its answer. */
  check(address: string): Promise<void>;
  close(): void;
}

export async function openDgramCeiling(
  server: string,
  ipZones: readonly string[],
): Promise<DgramCeiling> {
  const bare = await openBareDgram(server);
  const ptrNameOf = (message: Buffer): string | undefined => {
    const answer = dnsPacket.decode(message).answers?.find((record) => record.type === 'PTR');
    return answer?.type === 'PTR' ? answer.data : undefined;
  };
  return {
    async check(address) {
      const label = targetLabel({ kind: 'ip', address });
      const forward = bare.exchange(reverseName(address), 'PTR').then(async (message) => {
        const name = ptrNameOf(message);
        if (name !== undefined) await bare.exchange(name, 'A');
      });
      await Promise.all([
        ...ipZones.map((zone) => bare.exchange(`${label}.${zone}`, 'A')),
        forward,
      ]);
    },
    close: () => bare.close(),
  };
}
