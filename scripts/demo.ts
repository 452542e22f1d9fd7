import { loadZoneList } from '../src/reputation/index.js';
import { startFixtureDnsServer } from '../fixtures/dns-server.js';
import {
  demoAddresses,
  demoFlapping,
  demoMail,
  demoNames,
  demoWorld,
  demoZones,
} from './demo-world.js';
import { ensureDemoCa, startDemoMail } from './demo-mail.js';
import { startFlapping } from './demo-flapping.js';
import {
  demoReportsAddress,
  reportsInstructions,
  seedDemoInbox,
  untilServing,
} from './demo-reports.js';
import { applyDemoWatchSettings, watchInstructions } from './demo-watch.js';

/**
 * `npm run demo`: the service on a bundled DNS world, so anyone can try it offline. A local DNS
 * server answers for the default blocklists with made-up listings; the service resolves through it.
 */

// The mail world's CA must be trusted from the process's start: this may run the demo again.
const mail = await startDemoMail(await ensureDemoCa());
process.env.PROBE_SMTP_PORT = String(mail.smtpPort);
process.env.PROBE_HTTPS_PORT = String(mail.httpsPort);
process.env.PROBE_ALLOW_NETWORKS = '127.0.0.0/8';
process.env.SMTP_TIMEOUT_MS ??= '3000';

// A watch at work (scripts/demo-watch.ts): loopback receivers for the operator's watches, short
// intervals, and one address listed and delisted on a cycle.
const watch = (() => {
  try {
    return applyDemoWatchSettings(process.env);
  } catch (error) {
    console.error(`npm run demo: ${(error as Error).message}`);
    process.exit(2);
  }
})();
const zones = await loadZoneList();
const dns = await startFixtureDnsServer({ zones: demoWorld(zones), latencyMs: 5 });
startFlapping({
  dns,
  zones,
  periodMs: watch.flapMs,
  onFlip: (listed) =>
    console.log(
      `${new Date().toISOString().slice(11, 19)} demo world: ${demoFlapping.address} ${listed ? 'listed on' : 'delisted from'} ${demoFlapping.zone}`,
    ),
});
process.env.DNS_SERVERS = dns.address;
// The world knows only its own names: another is refused as outside it, naming these.
process.env.DNS_KNOWN_ZONES ??= demoZones.join(',');
// The demo pool's name server is this same local server: let discovery ask it directly.
process.env.POOL_NS_PORT = String(dns.port);
process.env.POOL_NS_ALLOW_NON_PUBLIC = 'true';
process.env.PORT ??= '8787';
process.env.HOST ??= '127.0.0.1';
// Warnings show: a failed delivery, an SMTP_URL that does not work (docs/watches.md, "E-mail").
process.env.LOG_LEVEL ??= 'warn';
// E-mail links are built from PUBLIC_URL, which SMTP_URL needs: the demo's own address, unless set.
if (process.env.SMTP_URL && !process.env.PUBLIC_URL) {
  process.env.PUBLIC_URL = `http://${process.env.HOST}:${process.env.PORT}`;
}
// A throwaway run: the demo's made-up results stay out of the real data/reputation.db.
process.env.STORE_URL ??= 'memory:';
// Inboxes get an address under it (scripts/demo-reports.ts); no mail reaches it offline.
process.env.REPORTS_ADDRESS ??= demoReportsAddress;

await import('../src/server.js');

const base = `http://${process.env.HOST}:${process.env.PORT}${process.env.BASE_PATH ?? '/tools/ip-reputation'}`;
// A reports inbox with a month of reports, made over HTTP once the server answers.
await untilServing(base);
const inbox = await seedDemoInbox(base, watch.operatorToken);
const post = (path: string, body: object) =>
  `curl -s -X POST ${base}${path} -H 'content-type: application/json' -d '${JSON.stringify(body)}'`;
console.log(`Demo DNS world on ${dns.address}; the service on ${base}. Try:

  # the check page, in a browser (Russian: ?lang=ru)
  open ${base}/

  # quota status, and every blocklist's health (state, reason, self-test, traffic)
  curl -s ${base}/ip/v1/status
  curl -s ${base}/lists

  # a clean address with forward-confirmed reverse DNS, and a listed one
  ${post('/ip/v1', { target: demoAddresses.clean })}
  ${post('/ip/v1', { target: demoAddresses.listed })}

  # IPv6: an address in any RFC 4291 form (answered in RFC 5952 form), and a listed one
  ${post('/ip/v1', { target: demoAddresses.ipv6.toUpperCase().replace('::', ':0:0:0:0:') })}
  ${post('/ip/v1', { target: demoAddresses.ipv6Listed })}

  # a host name (alias q), and an address on Spamhaus PBL only
  ${post('/ip/v1', { q: demoNames.host })}
  ${post('/ip/v1', { target: demoAddresses.dynamic })}

  # a result again by its token (put the token from a POST answer here), its badge, card and share page
  curl -s ${base}/ip/v1/TOKEN
  curl -s ${base}/ip/v1/share/TOKEN/badge.svg
  curl -s -o card.png ${base}/ip/v1/share/TOKEN/card
  open ${base}/ip/v1/share/TOKEN

  # a sending domain: its sender IPs (SPF + MX), DMARC, domain lists; and a domain on Spamhaus DBL
  ${post('/domain/v1', { domain: demoNames.domain })}
  ${post('/domain/v1', { domain: demoNames.listedDomain })}

  # a pool that hands out 3 of its 12 addresses per answer: discover them, then check a few
  ${post('/pool/v1/discover', { pool: demoNames.pool })}
  ${post('/pool/v1/check', { pool: demoNames.pool, ips: ['192.0.3.100', '192.0.3.103', '192.0.3.107'] })}

  # a mail setup: will Gmail, Yahoo and Microsoft take its mail? Its MX ${demoMail.mxTls.host}
  # (${demoMail.mxTls.address}) offers STARTTLS on a certificate of the demo's own CA,
  # ${demoMail.mxPlain.host} (${demoMail.mxPlain.address}) does not; the MTA-STS policy is served over
  # HTTPS at ${demoMail.policyAddress} (PROBE_SMTP_PORT=${mail.smtpPort}, PROBE_HTTPS_PORT=${mail.httpsPort});
  # only the operator's checks (OPERATOR_TOKEN) reach these loopback servers (PROBE_ALLOW_NETWORKS)
  ${post('/mail/v1', { domain: demoMail.domain, dkim_selectors: ['google'] })} -H 'authorization: Bearer ${watch.operatorToken}'

  # the mail setup of a domain on Spamhaus DBL and URIBL: its own listings come first
  ${post('/mail/v1', { domain: demoNames.listedDomain })}

${watchInstructions(base, watch)}

${reportsInstructions(base, inbox)}

  # the OpenAPI document
  curl -s ${base}/openapi.json

Ctrl-C stops it.`);
