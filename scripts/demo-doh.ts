import { loadZoneList } from '../src/reputation/index.js';
import { startFixtureDnsServer } from '../fixtures/dns-server.js';
import { startFixtureDohServer } from '../fixtures/doh-server.js';
import { demoWorld } from './demo-world.js';

/**
 * `npm run demo:doh`: the demo's DNS world (scripts/demo-world.ts) behind a DNS-over-HTTPS endpoint
 * on 127.0.0.1, so the Workers build can be tried offline: `npm run dev:worker` resolving through
 * it answers the same examples as `npm run demo` (README, "Trying the Workers build").
 */

const port = Number(process.env.DOH_PORT ?? 8053);
const dns = await startFixtureDnsServer({ zones: demoWorld(await loadZoneList()), latencyMs: 5 });
const doh = await startFixtureDohServer({ dns, port });
console.log(`DoH endpoint of the demo DNS world: ${doh.url}
In another terminal:

  npm run dev:worker -- --port 8787 --var DOH_URL:${doh.url}

Ctrl-C stops it.`);

const stop = () => {
  void Promise.all([doh.close(), dns.close()]).then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
