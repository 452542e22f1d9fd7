import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type KeyPairPem, makeCa, makeKeyPair } from '../../fixtures/mail-world.js';

/**
 * Once per test run, before vitest starts its worker processes: a test CA made now (never a key
 * kept in the repository), written to a temporary file that NODE_EXTRA_CA_CERTS names. Node
 * reads that variable only when a process starts, so it is set here, in the parent, and every
 * worker process inherits it: the mail probes then trust the test CA through Node's own trust
 * store, as an operator's extra CA would be trusted, with no trust code of their own
 * (docs/mail.md). The CA's key is provided to the tests (`inject('mailCa')`) to issue the MX and
 * MTA-STS certificates each test needs, with one server key pair made now beside it that every
 * one of them reuses: a test issuing a certificate waits for a signature, not for an RSA key.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  // Each project of the run calls this: the first makes the CA, the others provide the same one,
  // for the variable the workers start with can name one file only.
  const made = process.env.TEST_MAIL_CA_DIR;
  if (made !== undefined && existsSync(join(made, 'ca-key.pem'))) {
    const read = (name: string) => readFileSync(join(made, name), 'utf8');
    project.provide('mailCa', {
      cert: read('ca-cert.pem'),
      key: read('ca-key.pem'),
      file: join(made, 'ca.pem'),
      serverKeys: { privateKey: read('server-key.pem'), publicKey: read('server-public.pem') },
    });
    return () => {};
  }
  const [ca, serverKeys] = await Promise.all([makeCa('Reputation tools test CA'), makeKeyPair()]);
  const directory = mkdtempSync(join(tmpdir(), 'mail-ca-'));
  const file = join(directory, 'ca.pem');
  // An operator's own extra CAs, if the run was given some, stay trusted beside the test CA.
  const given = process.env.NODE_EXTRA_CA_CERTS;
  const kept = given !== undefined && existsSync(given) ? readFileSync(given, 'utf8') : '';
  writeFileSync(file, `${kept}${kept.endsWith('\n') || kept === '' ? '' : '\n'}${ca.cert}`);
  writeFileSync(join(directory, 'ca-cert.pem'), ca.cert);
  writeFileSync(join(directory, 'server-public.pem'), serverKeys.publicKey);
  writeFileSync(join(directory, 'server-key.pem'), serverKeys.privateKey, { mode: 0o600 });
  writeFileSync(join(directory, 'ca-key.pem'), ca.key, { mode: 0o600 });
  process.env.NODE_EXTRA_CA_CERTS = file;
  process.env.TEST_MAIL_CA_DIR = directory;
  project.provide('mailCa', { cert: ca.cert, key: ca.key, file, serverKeys });
  return () => {
    rmSync(directory, { recursive: true, force: true });
    delete process.env.TEST_MAIL_CA_DIR;
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The run's test CA (PEM), trusted by every worker through NODE_EXTRA_CA_CERTS, and the key
     * pair of every certificate issued with it (fixtures/mail-world.ts, `Ca`).
     */
    mailCa: { cert: string; key: string; file: string; serverKeys: KeyPairPem };
  }
}
