import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  issueCertificate,
  makeCa,
  type Listening,
  type Pem,
  servePolicy,
  startPolicyServer,
  startSmtpServer,
} from '../fixtures/mail-world.js';
import { freePort } from '../fixtures/free-port.js';
import { demoMail } from './demo-world.js';

/**
 * The demo's mail world on loopback: an MX with STARTTLS (127.0.0.2), one without (127.0.0.3),
 * and the MTA-STS policy over HTTPS (127.0.0.4), on certificates of a CA made when the demo
 * starts. Node reads NODE_EXTRA_CA_CERTS only when a process starts, so the demo makes the CA,
 * then runs itself again with that variable naming it (`ensureDemoCa`): the probes trust it
 * through Node's own trust store, as the tests do (docs/mail.md).
 */

const caDirVariable = 'DEMO_MAIL_CA_DIR';

/**
 * In the first process: makes the CA, runs the demo again as a child that trusts it, and never
 * returns (it exits with the child). In the child: returns the CA.
 */
export async function ensureDemoCa(): Promise<Pem> {
  const made = process.env[caDirVariable];
  if (made !== undefined) {
    return {
      cert: readFileSync(join(made, 'ca-cert.pem'), 'utf8'),
      key: readFileSync(join(made, 'ca-key.pem'), 'utf8'),
    };
  }
  const ca = await makeCa('Reputation tools demo CA');
  const directory = mkdtempSync(join(tmpdir(), 'demo-mail-ca-'));
  writeFileSync(join(directory, 'ca-cert.pem'), ca.cert);
  writeFileSync(join(directory, 'ca-key.pem'), ca.key, { mode: 0o600 });
  writeFileSync(join(directory, 'ca.pem'), ca.cert);
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: {
      ...process.env,
      [caDirVariable]: directory,
      NODE_EXTRA_CA_CERTS: join(directory, 'ca.pem'),
    },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => child.kill(signal));
  }
  return new Promise<never>(() => {
    child.on('exit', (code, signal) => {
      rmSync(directory, { recursive: true, force: true });
      process.exit(code ?? (signal ? 1 : 0));
    });
  });
}

/** The MX servers and the policy host; the ports go into PROBE_SMTP_PORT and PROBE_HTTPS_PORT. */
export async function startDemoMail(
  ca: Pem,
): Promise<{ smtpPort: number; httpsPort: number; servers: Listening[] }> {
  const [smtpPort, httpsPort, mxCertificate, policyCertificate] = await Promise.all([
    freePort(),
    freePort(),
    issueCertificate(ca, [demoMail.mxTls.host]),
    issueCertificate(ca, [`mta-sts.${demoMail.domain}`]),
  ]);
  const servers = await Promise.all([
    startSmtpServer({
      host: demoMail.mxTls.address,
      port: smtpPort,
      tls: mxCertificate,
      banner: 'demo MX',
    }),
    startSmtpServer({ host: demoMail.mxPlain.address, port: smtpPort, banner: 'demo MX' }),
    startPolicyServer({
      host: demoMail.policyAddress,
      port: httpsPort,
      tls: policyCertificate,
      handler: servePolicy(demoMail.policy),
    }),
  ]);
  return { smtpPort, httpsPort, servers };
}
