import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reversedOctets } from '../src/lib/index.js';
import type { CpuSide } from './cpu-in-turns.js';
import { startBareCheckChild } from './reference/bare-check-child.js';
import type { BareAnswer } from './reference/bare-http.js';
import { type ListeningChild, startListening } from './reference/listening.js';
import { startTrickleForwarder } from './trickle-forwarder.js';
import { type TricklePlan, tricklePlan } from './trickle-plan.js';
import type { BenchWorld } from './world.js';

/**
 * What section 14 and `bench/experiments/trickle-ab.ts` stand on: the forwarder that makes a
 * check's answers trickle (in front of the fixture DNS at `upstream`) and the bare client that
 * asks a check's questions through it, in a process of its own.
 */

export interface Trickle {
  plan: TricklePlan;
  /** The forwarder, `127.0.0.1:<port>`: the services' DNS_SERVERS. */
  address: string;
  /** Questions of one uncached IP check: every IP list, the test entry, the PTR and its name's A. */
  questions: number;
  bare: CpuSide;
  /**
   * The same bare client behind a bare node:http server (bench/reference/bare-check-http-server.ts),
   * asking through the same forwarder and answering with `answer`, the service's own answer to a
   * check: what any service answering the check over HTTP spends.
   */
  startBareCheckHttp(answer: BareAnswer): Promise<ListeningChild>;
  close(): Promise<void>;
}

/** `<reversed test entry>.<zone>` of each IP list that documents a positive one (RFC 5782 §5). */
function testEntryNames(world: BenchWorld): string[] {
  return world.ipZones.flatMap((zone) => {
    const listed = zone.selfTest?.listed === undefined ? '127.0.0.2' : zone.selfTest.listed;
    return listed === null ? [] : [`${reversedOctets(listed)}.${zone.zone}`];
  });
}

const bareCheckHttpServer = fileURLToPath(
  new URL('./reference/bare-check-http-server.ts', import.meta.url),
);

export async function startTrickle(
  upstream: string,
  world: BenchWorld,
  /** Where the bare client writes its V8 profile (`<dir>/trickle-bare`), if anywhere. */
  cpuProfileDir?: string,
): Promise<Trickle> {
  const plan = tricklePlan(world.ipZoneNames);
  const forwarder = await startTrickleForwarder({ upstream, plan });
  const child = await startBareCheckChild(
    forwarder.address,
    world.ipZoneNames,
    testEntryNames(world),
    cpuProfileDir ? join(cpuProfileDir, 'trickle-bare') : undefined,
  );
  return {
    plan,
    address: forwarder.address,
    questions: world.ipZoneNames.length + 3,
    bare: {
      name: 'bare',
      pid: child.pid,
      run: (addresses, inFlight) => child.run(addresses, inFlight),
    },
    startBareCheckHttp: (answer) =>
      startListening(
        bareCheckHttpServer,
        [
          forwarder.address,
          JSON.stringify(world.ipZoneNames),
          JSON.stringify(testEntryNames(world)),
        ],
        { ...process.env, BARE_CHECK_ANSWER: JSON.stringify(answer) },
      ),
    async close() {
      await child.stop();
      await forwarder.close();
    },
  };
}
