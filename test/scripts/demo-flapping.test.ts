import { promises as dns } from 'node:dns';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadZoneList } from '../../src/reputation/index.js';
import { type FixtureDnsServer, startFixtureDnsServer } from '../../fixtures/dns-server.js';
import { type FlappingCycle, startFlapping } from '../../scripts/demo-flapping.js';
import { demoAddresses, demoFlapping, demoWorld } from '../../scripts/demo-world.js';

/**
 * The demo world's listing that comes and goes (scripts/demo-flapping.ts), asked on the wire of
 * the fixture DNS server as the demo's service asks it: the flapping address is not listed, then
 * listed for one period, then not; the rest of the world answers the same throughout.
 */

const zones = await loadZoneList();
const periodMs = 300;
const reversed = (address: string) => address.split('.').reverse().join('.');
const flappingName = `${reversed(demoFlapping.address)}.${demoFlapping.zone}`;
const listedName = `${reversed(demoAddresses.listed)}.${demoFlapping.zone}`;

let server: FixtureDnsServer;
let resolver: dns.Resolver;
let cycle: FlappingCycle | undefined;

beforeAll(async () => {
  server = await startFixtureDnsServer({ zones: demoWorld(zones) });
  resolver = new dns.Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([server.address]);
  return () => server.close();
});
afterEach(() => cycle?.stop());

/** The A answer for `name`, or the error code (ENOTFOUND for NXDOMAIN). */
async function answer(name: string): Promise<string[] | string> {
  return resolver.resolve4(name).catch((error: NodeJS.ErrnoException) => error.code ?? 'error');
}

/** What the rest of the world answers, which no flip may change. */
async function unchanged() {
  expect(await answer(listedName)).toEqual(['127.0.0.2']);
  expect(await resolver.reverse(demoFlapping.address)).toEqual([demoFlapping.host]);
  expect(await answer(demoFlapping.host)).toEqual([demoFlapping.address]);
}

describe('the flapping cycle', () => {
  it('lists the address on its list for one period, then not, on the wire', async () => {
    const flips: boolean[] = [];
    let flipped: (listed: boolean) => void = () => {};
    const nextFlip = () => new Promise<boolean>((resolve) => (flipped = resolve));
    const first = nextFlip();
    cycle = startFlapping({
      dns: server,
      zones,
      periodMs,
      onFlip: (listed) => {
        flips.push(listed);
        flipped(listed);
      },
    });

    expect(cycle.listed).toBe(false);
    expect(await answer(flappingName)).toBe('ENOTFOUND');
    await unchanged();

    const second = (await first, nextFlip());
    expect(cycle.listed).toBe(true);
    expect(await answer(flappingName)).toEqual([...demoFlapping.codes]);
    await unchanged();

    await second;
    expect(cycle.listed).toBe(false);
    expect(await answer(flappingName)).toBe('ENOTFOUND');
    await unchanged();
    expect(flips).toEqual([true, false]);
  });

  it('flips no more once stopped', async () => {
    const flips: boolean[] = [];
    cycle = startFlapping({ dns: server, zones, periodMs, onFlip: (listed) => flips.push(listed) });
    cycle.stop();
    await new Promise((resolve) => setTimeout(resolve, periodMs * 2.5));
    expect(flips).toEqual([]);
    expect(await answer(flappingName)).toBe('ENOTFOUND');
  });
});

describe('the demo world without the cycle', () => {
  it('does not list the flapping address, and lists it when asked', () => {
    const listingOf = (world: ReturnType<typeof demoWorld>) =>
      world.find((zone) => zone.origin === demoFlapping.zone)?.records?.[flappingName];
    expect(listingOf(demoWorld(zones))).toBeUndefined();
    expect(listingOf(demoWorld(zones, { flappingListed: true }))).toEqual({
      A: [...demoFlapping.codes],
    });
  });
});
