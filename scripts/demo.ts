import { loadZoneList } from '../src/reputation/zones.js';
import { startFixtureDnsServer } from '../test/fixtures/dns-server.js';
import { demoAddresses, demoNames, demoWorld } from './demo-world.js';

/**
 * `npm run demo`: the service on a bundled DNS world, so anyone can try it offline. A local DNS
 * server answers for the default blocklists with made-up listings; the service resolves through it.
 */

const dns = await startFixtureDnsServer({ zones: demoWorld(await loadZoneList()), latencyMs: 5 });
process.env.DNS_SERVERS = dns.address;
process.env.PORT ??= '8787';
process.env.HOST ??= '127.0.0.1';
process.env.LOG_LEVEL ??= 'error';

await import('../src/server.js');

const base = `http://${process.env.HOST}:${process.env.PORT}${process.env.BASE_PATH ?? '/tools/ip-reputation'}`;
const post = (path: string, body: object) =>
  `curl -s -X POST ${base}${path} -H 'content-type: application/json' -d '${JSON.stringify(body)}'`;
console.log(`Demo DNS world on ${dns.address}; the service on ${base}. Try:

  # quota status
  curl -s ${base}/ip/v1/status

  # a clean address with forward-confirmed reverse DNS, and a listed one
  ${post('/ip/v1', { target: demoAddresses.clean })}
  ${post('/ip/v1', { target: demoAddresses.listed })}

  # a host name (alias q), and an address on Spamhaus PBL only
  ${post('/ip/v1', { q: demoNames.host })}
  ${post('/ip/v1', { target: demoAddresses.dynamic })}

  # a result again by its token (put the token from a POST answer here)
  curl -s ${base}/ip/v1/TOKEN

  # the OpenAPI document
  curl -s ${base}/openapi.json

Ctrl-C stops it.`);
