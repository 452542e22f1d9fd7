import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FixtureRecords, FixtureZone } from '../fixtures/dns-server.js';
import { freePort } from '../fixtures/free-port.js';
import {
  issueCertificate,
  makeCa,
  type Listening,
  servePolicy,
  startPolicyServer,
  startSmtpServer,
} from '../fixtures/mail-world.js';
import type { AddressAllocator } from './addresses.js';

/**
 * Section 12's mail world (docs/benchmarks.md): sending domains, each fresh to the service's
 * caches (its own MX host, MTA-STS host and sender address), served by the benchmark's fixture
 * DNS; one SMTP server with STARTTLS on 127.0.0.2 that every MX host resolves to, and one HTTPS
 * server on 127.0.0.3 serving every domain's MTA-STS policy, on certificates of a CA made for
 * the run. The service trusts it through NODE_EXTRA_CA_CERTS, as docs/mail.md says an operator's
 * extra CA is trusted.
 */

export const mailZone = 'mail.bench-fixture.net';
export const mxAddress = '127.0.0.2';
export const policyAddress = '127.0.0.3';
/** A selector of the bundled table: found on the first DKIM round, as a real domain's would be. */
export const dkimSelector = 'google';
/** RFC 8463 §A.2's Ed25519 public key. */
const dkimKey = 'v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=';

export interface MailDomain {
  domain: string;
  mx: string;
  policyHost: string;
  /** The SPF record's one address: it has PTR and forward A records, as every bench address. */
  sender: string;
}

export interface MailWorld {
  domains: MailDomain[];
  zones: FixtureZone[];
}

export const mxOf = (domain: string) => `mx.${domain}`;
export const policyHostOf = (domain: string) => `mta-sts.${domain}`;

export function buildMailWorld(allocator: AddressAllocator, count: number): MailWorld {
  const records: Record<string, FixtureRecords> = {};
  const domains = allocator.take(count).map((sender, index): MailDomain => {
    const domain = `m${index}.${mailZone}`;
    const mx = mxOf(domain);
    const policyHost = policyHostOf(domain);
    records[domain] = {
      TXT: [`v=spf1 ip4:${sender} -all`],
      MX: [{ exchange: mx, priority: 10 }],
    };
    records[mx] = { A: [mxAddress] };
    records[policyHost] = { A: [policyAddress] };
    records[`_dmarc.${domain}`] = { TXT: [`v=DMARC1; p=reject; rua=mailto:dmarc@${domain}`] };
    records[`${dkimSelector}._domainkey.${domain}`] = { TXT: [dkimKey] };
    records[`_mta-sts.${domain}`] = { TXT: ['v=STSv1; id=1'] };
    records[`_smtp._tls.${domain}`] = { TXT: [`v=TLSRPTv1; rua=mailto:tls@${domain}`] };
    return { domain, mx, policyHost, sender };
  });
  return { domains, zones: [{ origin: mailZone, records }] };
}

export interface MailServers {
  smtpPort: number;
  httpsPort: number;
  /** The CA's certificate, for the floor's own TLS clients. */
  caCert: string;
  /** NODE_EXTRA_CA_CERTS for the service. */
  caFile: string;
  close(): Promise<void>;
}

/** The CA, the certificates of every MX and MTA-STS host, and the two servers. */
export async function startMailServers(world: MailWorld): Promise<MailServers> {
  const ca = await makeCa('Reputation tools bench CA');
  const directory = mkdtempSync(join(tmpdir(), 'bench-mail-ca-'));
  const caFile = join(directory, 'ca.pem');
  writeFileSync(caFile, ca.cert);
  const policy = (domain: MailDomain) =>
    `version: STSv1\r\nmode: enforce\r\nmx: ${domain.mx}\r\nmax_age: 86400\r\n`;
  const [smtpPort, httpsPort, mxCertificate, policyCertificate] = await Promise.all([
    freePort(),
    freePort(),
    issueCertificate(
      ca,
      world.domains.map((domain) => domain.mx),
    ),
    issueCertificate(
      ca,
      world.domains.map((domain) => domain.policyHost),
    ),
  ]);
  const byPolicyHost = new Map(world.domains.map((domain) => [domain.policyHost, domain]));
  const servers: Listening[] = await Promise.all([
    startSmtpServer({ host: mxAddress, port: smtpPort, tls: mxCertificate, banner: 'bench MX' }),
    startPolicyServer({
      host: policyAddress,
      port: httpsPort,
      tls: policyCertificate,
      handler: (request, response) => {
        const domain = byPolicyHost.get((request.headers.host ?? '').replace(/:\d+$/, ''));
        if (!domain) {
          response.writeHead(404).end();
          return;
        }
        servePolicy(policy(domain))(request, response);
      },
    }),
  ]);
  return {
    smtpPort,
    httpsPort,
    caCert: ca.cert,
    caFile,
    async close() {
      await Promise.all(servers.map((server) => server.close()));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
