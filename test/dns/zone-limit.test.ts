import { describe, expect, it } from 'vitest';
import type { DnsOutcome, Resolver } from '../../src/dns/resolver.js';
import { withZoneLimit } from '../../src/dns/zone-limit.js';

/** The per-list cap of the edge build: a silent list holds its share of slots, no more. */

/** A transport whose answers the test releases by hand, recording what is in flight. */
function heldTransport() {
  const inFlight: string[] = [];
  const release = new Map<string, () => void>();
  const transport: Resolver = {
    query(name) {
      inFlight.push(name);
      return new Promise<DnsOutcome<string>>((resolve) => {
        release.set(name, () => {
          inFlight.splice(inFlight.indexOf(name), 1);
          resolve({ status: 'nxdomain' });
        });
      }) as never;
    },
  };
  return { transport, inFlight, release: (name: string) => release.get(name)!() };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('withZoneLimit', () => {
  it('keeps at most the cap in flight under one zone, starting the next as one ends', async () => {
    const { transport, inFlight, release } = heldTransport();
    const limited = withZoneLimit(transport, { zones: ['bl.example'], maxPerZone: 2 });
    const answers = ['1', '2', '3', '4'].map((n) => limited.query(`${n}.bl.example`, 'A'));
    expect(inFlight).toEqual(['1.bl.example', '2.bl.example']);
    release('1.bl.example');
    await tick();
    expect(inFlight).toEqual(['2.bl.example', '3.bl.example']);
    release('2.bl.example');
    release('3.bl.example');
    await tick();
    release('4.bl.example');
    expect(await Promise.all(answers)).toEqual(Array(4).fill({ status: 'nxdomain' }));
  });

  it('lets other zones and names under no listed zone through while one zone is full', () => {
    const { transport, inFlight } = heldTransport();
    const limited = withZoneLimit(transport, {
      zones: ['bl.example', 'dbl.example'],
      maxPerZone: 1,
    });
    void limited.query('1.bl.example', 'A');
    void limited.query('2.bl.example', 'A');
    void limited.query('test.dbl.example', 'A');
    void limited.query('mail.example.org', 'A');
    expect(inFlight).toEqual(['1.bl.example', 'test.dbl.example', 'mail.example.org']);
  });

  it('answers timeout at once to a waiting query whose signal aborts, and never sends it', async () => {
    const { transport, inFlight, release } = heldTransport();
    const limited = withZoneLimit(transport, { zones: ['bl.example'], maxPerZone: 1 });
    const controller = new AbortController();
    void limited.query('1.bl.example', 'A');
    const waiting = limited.query('2.bl.example', 'A', { signal: controller.signal });
    controller.abort();
    expect(await waiting).toEqual({ status: 'timeout' });
    release('1.bl.example');
    await tick();
    expect(inFlight).toEqual([]);
  });
});
