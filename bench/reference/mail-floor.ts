import { request } from 'node:https';
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { recordsOf } from '../../src/dns/index.js';
import { createResolver, readConfig } from '../../src/node/index.js';
import { parseServerAddress } from '../../src/node/dns/index.js';
import { createTlsaLookup } from '../../src/node/probes/index.js';
import { reverseName, targetLabel } from '../../src/reputation/index.js';
import type { MailDomain } from '../mail-world.js';

/**
 * The floor of section 12 (docs/benchmarks.md): one mail check's network work with nothing around
 * it, in the order the check must do it (src/reputation/mail/mail-check.ts). Its DNS through the
 * service's own resolver (the configuration, UDP sockets and wire codec of src/services.ts) and
 * TLSA lookup; its SMTP and HTTPS as bare Node clients:
 *
 * - at once: the domain's TXT (SPF) and MX, `_dmarc`, `_smtp._tls`, `default._bimi`, every
 *   selector the check tries first (the bundled table's) under `_domainkey`, and `_mta-sts`,
 *   then the policy host's A and AAAA, then the policy over HTTPS (one fresh connection, the
 *   certificate checked);
 * - once SPF and MX have answered: the MX host's A and AAAA, then one SMTP session (greeting,
 *   EHLO, STARTTLS, the TLS handshake with SNI, QUIT: the probe's exchange); the MX host's TLSA;
 *   the sender's PTR then the PTR name's A; the sender on every IP list.
 *
 * The service asks these questions and makes these connections for a domain of the bench's mail
 * world, and does more around them (HTTP, parsing, the rules, the score, the store): it cannot
 * answer sooner.
 */

export interface MailFloor {
  check(domain: MailDomain): Promise<void>;
}

export interface MailFloorOptions {
  dnsServer: string;
  ipZones: readonly string[];
  /** The DKIM selectors the check tries first (the bundled table's, in its order). */
  selectors: readonly string[];
  smtpPort: number;
  httpsPort: number;
  caCert: string;
  timeoutMs: number;
}

/** Reads SMTP replies off a socket: resolves with each complete reply's code (its last line). */
function replies(socket: Socket) {
  let buffer = '';
  let waiting: ((code: number) => void) | undefined;
  const codes: number[] = [];
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('latin1');
    for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      // RFC 5321 §4.2.1: "250-" goes on, "250 " ends the reply.
      if (line[3] !== '-') codes.push(Number(line.slice(0, 3)));
    }
    if (waiting && codes.length > 0) {
      const resolve = waiting;
      waiting = undefined;
      resolve(codes.shift()!);
    }
  });
  return () =>
    new Promise<number>((resolve) => {
      if (codes.length > 0) resolve(codes.shift()!);
      else waiting = resolve;
    });
}

/** Greeting, EHLO, STARTTLS, the TLS handshake, QUIT: what the service's probe exchanges. */
async function smtpSession(address: string, host: string, options: MailFloorOptions) {
  const socket = connect({ host: address, port: options.smtpPort });
  socket.setTimeout(options.timeoutMs, () => socket.destroy(new Error('SMTP floor timed out')));
  const failed = new Promise<never>((_, reject) => socket.once('error', reject));
  const next = replies(socket);
  const session = (async () => {
    if ((await next()) !== 220) throw new Error('no greeting');
    socket.write('EHLO bench.invalid\r\n');
    if ((await next()) !== 250) throw new Error('EHLO refused');
    socket.write('STARTTLS\r\n');
    if ((await next()) !== 220) throw new Error('STARTTLS refused');
    socket.removeAllListeners('data');
    const secure = tlsConnect({ socket, servername: host, ca: [options.caCert] });
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', resolve);
      secure.once('error', reject);
    });
    secure.end('QUIT\r\n');
    secure.destroy();
  })();
  try {
    await Promise.race([session, failed]);
  } finally {
    socket.destroy();
  }
}

/** One HTTPS GET of the policy on a fresh connection, the body read to its end. */
function fetchPolicy(address: string, host: string, options: MailFloorOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const get = request(
      {
        host: address,
        port: options.httpsPort,
        servername: host,
        path: '/.well-known/mta-sts.txt',
        headers: { host },
        ca: [options.caCert],
        agent: false,
        timeout: options.timeoutMs,
      },
      (response) => {
        response.on('data', () => {});
        response.on('end', () =>
          response.statusCode === 200 ? resolve() : reject(new Error('no policy')),
        );
      },
    );
    get.on('timeout', () => get.destroy(new Error('policy floor timed out')));
    get.on('error', reject);
    get.end();
  });
}

export function createMailFloor(options: MailFloorOptions): MailFloor {
  const config = readConfig({ DNS_SERVERS: options.dnsServer });
  const resolver = createResolver(config.dns);
  const server = parseServerAddress(options.dnsServer);
  if (!server) throw new Error(`not a DNS server address: ${options.dnsServer}`);
  const tlsa = createTlsaLookup({ servers: [server], timeoutMs: options.timeoutMs });
  const txt = (name: string) => resolver.query(name, 'TXT');
  const addressesOf = async (host: string) => {
    const [a] = await Promise.all([resolver.query(host, 'A'), resolver.query(host, 'AAAA')]);
    const [address] = recordsOf(a);
    if (address === undefined) throw new Error(`${host} has no address`);
    return address;
  };

  return {
    async check(domain) {
      const mtaSts = txt(`_mta-sts.${domain.domain}`)
        .then(() => addressesOf(domain.policyHost))
        .then((address) => fetchPolicy(address, domain.policyHost, options));
      const [, mx] = await Promise.all([
        txt(domain.domain),
        resolver.query(domain.domain, 'MX'),
        txt(`_dmarc.${domain.domain}`),
        txt(`_smtp._tls.${domain.domain}`),
        txt(`default._bimi.${domain.domain}`),
        ...options.selectors.map((selector) => txt(`${selector}._domainkey.${domain.domain}`)),
      ]);
      if (recordsOf(mx).length === 0) throw new Error(`${domain.domain} has no MX`);
      const signal = AbortSignal.timeout(options.timeoutMs);
      const label = targetLabel({ kind: 'ip', address: domain.sender });
      await Promise.all([
        mtaSts,
        addressesOf(domain.mx).then((address) => smtpSession(address, domain.mx, options)),
        tlsa(`_25._tcp.${domain.mx}`, signal),
        resolver
          .query(reverseName(domain.sender), 'PTR')
          .then((ptr) => Promise.all(recordsOf(ptr).map((name) => resolver.query(name, 'A')))),
        ...options.ipZones.map((zone) => resolver.query(`${label}.${zone}`, 'A')),
      ]);
    },
  };
}
