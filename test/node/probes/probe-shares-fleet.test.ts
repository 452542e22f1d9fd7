import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeProbes } from '../../../src/node/probes/index.js';
import {
  capacityShortage,
  defaultProbeShares,
  type MailProbes,
  probeLeaseMs,
  probeSlots,
  type ShareFleet,
  shareProbes,
  type SmtpProber,
} from '../../../src/reputation/mail/index.js';
import type { SmtpProbe } from '../../../src/reputation/results/index.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import { StoreUnavailableError, type Store } from '../../../src/store/index.js';
import { parseAddressRanges } from '../../../src/lib/index.js';
import { freePort } from '../../../fixtures/free-port.js';
import { startTarpit, type Tarpit } from '../../../fixtures/mail-world.js';

/**
 * A caller's and a network's shares of the probe slots counted across the fleet (docs/mail.md,
 * "Bounds and safety"): two `shareProbes` on one store stand for two workers of `WORKERS=2`, the
 * Node probes connect to a real tarpit (which holds each probe until its greeting bound), and the
 * tarpit counts the sessions. Each held lease is given back when its probe ends, however it ends,
 * and one never given back (its worker died) ends by its time to live.
 */

const shares = defaultProbeShares(probeSlots);
const timeoutMs = 1000;
let tarpit: Tarpit;
let probes: MailProbes;

beforeAll(async () => {
  const port = await freePort();
  tarpit = await startTarpit({ host: '127.0.0.4', port });
  probes = createNodeProbes({
    allowNetworks: parseAddressRanges(['127.0.0.0/8']).ranges,
    timeoutMs,
    smtpPort: port,
    httpsPort: port,
    publicUrl: undefined,
    tlsaServers: [],
    dnsTimeoutMs: 1000,
  });
});
afterAll(() => tarpit.close());

const fleetOn = (store: Pick<Store, 'addMemberWithin' | 'removeMembers'>): ShareFleet => ({
  leases: store,
  // The service stores the caller ids' keyed hash; any stable id shows the count.
  idOf: async (subject) => `id ${subject}`,
  randomBytes: (length) => crypto.getRandomValues(new Uint8Array(length)),
});

let probeNumber = 0;
const probe = (
  worker: MailProbes,
  caller: string,
  options: { interactive?: boolean; signal?: AbortSignal } = {},
) =>
  (worker.smtp as SmtpProber).probe({
    host: `mx${(probeNumber += 1)}.tarpit.example`,
    address: '127.0.0.4',
    operator: true,
    caller,
    interactive: options.interactive ?? true,
    signal: options.signal ?? new AbortController().signal,
  });

const refused = (answers: SmtpProbe[]) =>
  answers.filter((answer) => answer.detail?.startsWith(capacityShortage) === true);

/** Resolves once the tarpit holds `count` sessions open. */
async function tarpitHolds(count: number): Promise<void> {
  while (tarpit.open() < count) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('the shares of a caller and a network across two workers on one store', () => {
  it('lets one caller hold its share once across both workers, and another network’s caller probe meanwhile', async () => {
    const store = createMemoryStore();
    const [first, second] = [0, 1].map(() => shareProbes(probes, shares, fleetOn(store)));
    const before = tarpit.connections();
    const flood = [first!, second!].flatMap((worker) =>
      Array.from({ length: 8 }, () => probe(worker, '198.51.100.1')),
    );
    await tarpitHolds(shares.perCaller);
    const other = probe(second!, '203.0.113.7');
    const answers = await Promise.all(flood);
    expect(answers.filter((answer) => answer.status !== 'not_probed')).toHaveLength(
      shares.perCaller,
    );
    expect(refused(answers)).toHaveLength(16 - shares.perCaller);
    expect(refused(answers)[0]!.detail).toContain(`caller share, ${shares.perCaller} at once`);
    expect((await other).status).not.toBe('not_probed');
    // Ten of the flood's sessions and the other caller's one: per process the flood made 16.
    expect(tarpit.connections() - before).toBe(shares.perCaller + 1);
    // Every lease given back: the same caller holds its share again.
    const again = await Promise.all(
      Array.from({ length: shares.perCaller }, () => probe(first!, '198.51.100.1')),
    );
    expect(refused(again)).toHaveLength(0);
  }, 20_000);

  it('holds one network’s callers to the network’s share across both workers', async () => {
    const store = createMemoryStore();
    const [first, second] = [0, 1].map(() => shareProbes(probes, shares, fleetOn(store)));
    // Four callers of 198.51.100.0/24, five probes each, alternating workers: 20 wanted.
    const flood = Array.from({ length: 20 }, (_, i) =>
      probe(i % 2 === 0 ? first! : second!, `198.51.100.${(i % 4) + 10}`),
    );
    const answers = await Promise.all(flood);
    expect(refused(answers)).toHaveLength(20 - shares.perNetwork);
    expect(refused(answers)[0]!.detail).toContain(`network share, ${shares.perNetwork} at once`);
  }, 20_000);

  it('keeps a watch’s re-check probing while interactive checks hold their whole share of a process', async () => {
    const worker = shareProbes(probes, shares, fleetOn(createMemoryStore()));
    // Three callers of three networks, each its own share: the process's interactive 30.
    const callers = ['198.51.100.1', '203.0.113.1', '192.0.2.1'];
    const flood = callers.flatMap((caller) =>
      Array.from({ length: shares.perCaller }, () => probe(worker, caller)),
    );
    await tarpitHolds(shares.interactive);
    const fourth = await probe(worker, '233.252.0.1');
    expect(fourth.detail).toContain(`interactive share, ${shares.interactive} at once`);
    const watch = probe(worker, '198.51.100.1', { interactive: false });
    expect(refused(await Promise.all(flood))).toHaveLength(0);
    expect((await watch).status).not.toBe('not_probed');
  }, 20_000);

  it('gives a lease back when the probe throws or its check’s signal aborts', async () => {
    const store = createMemoryStore();
    const failing: MailProbes = {
      ...probes,
      smtp: {
        probe: () => Promise.reject(new Error('the socket layer failed')),
      },
    };
    const throwing = shareProbes(failing, shares, fleetOn(store));
    for (let i = 0; i < shares.perCaller + 2; i++) {
      await expect(probe(throwing, '198.51.100.1')).rejects.toThrow('the socket layer failed');
    }
    const worker = shareProbes(probes, shares, fleetOn(store));
    const aborts = new AbortController();
    const aborted = Array.from({ length: shares.perCaller }, () =>
      probe(worker, '198.51.100.1', { signal: aborts.signal }),
    );
    await tarpitHolds(shares.perCaller);
    aborts.abort();
    expect(refused(await Promise.all(aborted))).toHaveLength(0);
    expect(await store.members('probe-share:caller:id 198.51.100.1')).toEqual([]);
    expect(await store.members('probe-share:network:id 198.51.100.0/24')).toEqual([]);
  }, 20_000);

  it('frees a dead worker’s leases once they expire, no sooner', async () => {
    let skewMs = 0;
    const store = createMemoryStore({}, () => Date.now() + skewMs);
    // A worker whose leases are never given back: it died while its probes ran.
    const dying = shareProbes(probes, shares, {
      ...fleetOn(store),
      leases: { addMemberWithin: store.addMemberWithin, removeMembers: async () => {} },
    });
    await Promise.all(Array.from({ length: shares.perCaller }, () => probe(dying, '198.51.100.1')));
    const survivor = shareProbes(probes, shares, fleetOn(store));
    expect((await probe(survivor, '198.51.100.1')).detail).toContain(
      `caller share, ${shares.perCaller} at once`,
    );
    // Two seconds before the leases end (they began about half a second ago): still held.
    skewMs = probeLeaseMs(timeoutMs) - 2000;
    expect((await probe(survivor, '198.51.100.1')).detail).toContain(capacityShortage);
    skewMs = probeLeaseMs(timeoutMs);
    expect((await probe(survivor, '198.51.100.1')).status).not.toBe('not_probed');
  }, 20_000);

  it('refuses an interactive probe for capacity when the store cannot count, and lets a watch’s probe by', async () => {
    const down: Pick<Store, 'addMemberWithin' | 'removeMembers'> = {
      addMemberWithin: () => Promise.reject(new StoreUnavailableError('Redis is down')),
      removeMembers: () => Promise.reject(new StoreUnavailableError('Redis is down')),
    };
    const worker = shareProbes(probes, shares, fleetOn(down));
    const before = tarpit.connections();
    const answer = await probe(worker, '198.51.100.1');
    expect(answer).toMatchObject({
      status: 'not_probed',
      detail: expect.stringContaining(`${capacityShortage} (the shares could not be counted)`),
    });
    expect(tarpit.connections()).toBe(before);
    // A watch's re-check holds the process's watch slots only: no caller, no store.
    expect((await probe(worker, '198.51.100.1', { interactive: false })).status).not.toBe(
      'not_probed',
    );
  }, 20_000);
});
