import dnsPacket from 'dns-packet';
import { reverseName, targetLabel } from '../../src/reputation/index.js';
import { openBareDgram } from './bare-dgram.js';

/**
 * The trickling section's reference (docs/benchmarks.md, "Answers that trickle"): the questions of
 * one uncached IP check as the service asks them, by the least a client on `node:dgram` does
 * (bench/reference/bare-dgram.ts: 8 connected sockets, answers matched by ID alone), every answer
 * decoded with dns-packet: every IP list's A, one list's documented test entry (the service
 * confirms its resolver with one beside each check, a list in turn), and the PTR then its name's A.
 * No timer per query, no retry, no cache, no in-flight cap, no code table, no score, no HTTP:
 * whatever the service does beyond this, it does over these same answers.
 */

export interface BareCheck {
  /** The questions a check asks. */
  readonly questions: number;
  /** One check; true when every list answered NXDOMAIN, the test entry an address, the PTR's name its A. */
  check(address: string): Promise<boolean>;
  close(): void;
}

type Decoded = ReturnType<typeof dnsPacket.decode>;

export async function openBareCheck(
  server: string,
  ipZones: readonly string[],
  /** `<reversed test entry>.<zone>` of the lists that document one, asked one per check in turn. */
  testEntries: readonly string[],
): Promise<BareCheck> {
  const bare = await openBareDgram(server);
  let turn = 0;
  const ask = (name: string, type: 'A' | 'PTR'): Promise<Decoded> =>
    bare.exchange(name, type).then(dnsPacket.decode);
  // RFC 1035 §4.1.1: RCODE is the low 4 bits of the flags; 3 is NXDOMAIN.
  const nxdomain = (answer: Decoded) => ((answer.flags ?? 0) & 0xf) === 3;
  return {
    questions: ipZones.length + 3,
    async check(address) {
      const label = targetLabel({ kind: 'ip', address });
      const confirmation = ask(testEntries[turn++ % testEntries.length]!, 'A');
      const lists = ipZones.map((zone) => ask(`${label}.${zone}`, 'A'));
      const ptr = (await ask(reverseName(address), 'PTR')).answers?.find(
        (record) => record.type === 'PTR',
      );
      const forward = ptr?.type === 'PTR' ? await ask(ptr.data, 'A') : undefined;
      const confirmed = (await confirmation).answers?.some((record) => record.type === 'A');
      const answered = await Promise.all(lists);
      const confirmedForward = forward?.answers?.some(
        (record) => record.type === 'A' && record.data === address,
      );
      return answered.every(nxdomain) && confirmed === true && confirmedForward === true;
    },
    close: () => bare.close(),
  };
}

/** A check whose answers never all come (a datagram lost) is given up after this long. */
const checkTimeoutMs = 10_000;

/** One timer per check, not per question: a lost answer fails its check instead of hanging the run. */
export function checkWithinTimeout(bare: BareCheck, address: string): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(resolve, checkTimeoutMs, false);
  });
  return Promise.race([bare.check(address), late]).finally(() => clearTimeout(timer));
}
