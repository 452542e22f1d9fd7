import { loadZoneList } from '../../src/reputation/index.js';
import { startFixtureDnsServer } from '../../fixtures/dns-server.js';
import { dnsblWorld } from '../../fixtures/dnsbl-world.js';
import { startFixtureDohServer } from '../../fixtures/doh-server.js';
import { benchAddress, reverseDnsZones } from '../addresses.js';

/**
 * The fixture DNS server and its DoH endpoint for `bench/experiments/transport-cpu.ts`, in a process of their
 * own so that the transports' process counts only its own CPU. Serves the default zone list with
 * every tenth address listed on two lists, and PTR and A records for ADDRESSES addresses; prints
 * `{"address","dohUrl"}` on one line once ready, and exits when its stdin closes.
 */

const count = Number(process.argv[2] ?? 20_000);
const zones = await loadZoneList();
const [first, second] = zones.filter((zone) => zone.type === 'ip' && !zone.grade);
const listings = Object.fromEntries(
  Array.from({ length: count / 10 }, (_, tenth) => [
    benchAddress(tenth * 10),
    { [first!.zone]: ['127.0.0.2'], [second!.zone]: ['127.0.0.2'] },
  ]),
);
const dns = await startFixtureDnsServer({
  zones: [...dnsblWorld(zones, listings), ...reverseDnsZones(count)],
});
const doh = await startFixtureDohServer({ dns });
console.log(JSON.stringify({ address: dns.address, dohUrl: doh.url }));
process.stdin.resume();
process.stdin.on(
  'close',
  () => void Promise.all([doh.close(), dns.close()]).then(() => process.exit(0)),
);
