import { parentPort, workerData } from 'node:worker_threads';
import { loadZoneList } from '../src/reputation/index.js';
import {
  type FixtureDnsServer,
  type FixtureZone,
  startFixtureDnsServer,
} from '../fixtures/dns-server.js';
import { dnsblWorld, type Listings } from '../fixtures/dnsbl-world.js';
import { type FixtureDohServer, startFixtureDohServer } from '../fixtures/doh-server.js';
import { ipv6ReverseDnsZones, reverseDnsZones } from './addresses.js';

/**
 * The fixture DNS server in a worker thread: at full load it takes a core (plain UDP queries go
 * through fixtures/dns-wire.ts, tens of thousands a second), and on its own thread it does
 * not compete with the benchmark's clients on the main thread. A fixture DoH endpoint in front of
 * it serves the same world over HTTP (RFC 8484), with the same latency.
 */

export interface WorldSpec {
  /** Addresses (from index 0) that get PTR and forward A records. */
  addressCount: number;
  /** IPv6 addresses (from index 0) that get PTR records under ip6.arpa and forward AAAA records. */
  ipv6AddressCount: number;
  listings: Listings;
  latencyMs: number;
  /** More zones served as they are (the soak's domains and pools). */
  extraZones?: FixtureZone[];
}

/** A zone served differently: dropped (but some names), answered late, or with a failure code. */
export interface ZoneOverride {
  zone: string;
  behaviour?: FixtureZone['behaviour'];
  /** Names answered otherwise than the zone (a list that answers only its test entries). */
  names?: FixtureZone['names'];
  latencyMs?: number;
  /** Records served beside the zone's own (a listing that comes and goes while the service runs). */
  records?: FixtureZone['records'];
}

export type WorkerRequest =
  | { id: number; kind: 'setLatency'; ms: number }
  | { id: number; kind: 'override'; overrides: ZoneOverride[] }
  | { id: number; kind: 'close' };

export type WorkerReply =
  | { kind: 'ready'; address: string; port: number; dohUrl: string }
  | { kind: 'done'; id: number }
  | { kind: 'failed'; error: string };

async function world(spec: WorldSpec, overrides: ZoneOverride[]): Promise<FixtureZone[]> {
  const zones = dnsblWorld(await loadZoneList(), spec.listings).map((zone) => {
    const override = overrides.find((entry) => entry.zone === zone.origin);
    if (!override) return zone;
    const records = { ...zone.records, ...override.records };
    return { ...zone, ...override, origin: zone.origin, records };
  });
  return [
    ...zones,
    ...reverseDnsZones(spec.addressCount),
    ...ipv6ReverseDnsZones(spec.ipv6AddressCount),
    ...(spec.extraZones ?? []),
  ];
}

const port = parentPort;
if (!port) throw new Error('dns-worker.ts runs as a worker thread');
const spec = workerData as WorldSpec;
let server: FixtureDnsServer;
let doh: FixtureDohServer;
try {
  server = await startFixtureDnsServer({ zones: await world(spec, []), latencyMs: spec.latencyMs });
  doh = await startFixtureDohServer({ dns: server });
  port.postMessage({ kind: 'ready', address: server.address, port: server.port, dohUrl: doh.url });
} catch (error) {
  port.postMessage({ kind: 'failed', error: String(error) });
  process.exit(1);
}

port.on('message', (request: WorkerRequest) => {
  void (async () => {
    switch (request.kind) {
      case 'setLatency':
        server.setLatency(request.ms);
        break;
      case 'override':
        server.setZones(await world(spec, request.overrides));
        break;
      case 'close':
        await doh.close();
        await server.close();
        port.postMessage({ kind: 'done', id: request.id });
        port.close();
        return;
    }
    port.postMessage({ kind: 'done', id: request.id });
  })();
});
