import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { issueCertificate, type Pem } from '../../../fixtures/mail-world.js';
import { readTlsPair } from '../../../src/node/reports/tls-files.js';

/** REPORTS_TLS_CERT and REPORTS_TLS_KEY read at start: a bad file is one line naming it. */

let folder: string;
let pem: Pem;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'reports-tls-'));
  const ca = inject('mailCa');
  pem = await issueCertificate(ca, ['mx.reports.example.org']);
  writeFileSync(join(folder, 'cert.pem'), pem.cert);
  writeFileSync(join(folder, 'key.pem'), pem.key);
  // A private key, but not the certificate's: the CA's own.
  writeFileSync(join(folder, 'other-key.pem'), ca.key);
  writeFileSync(join(folder, 'not-pem.txt'), 'hello');
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('readTlsPair', () => {
  it('reads a certificate and its key', () => {
    const files = { cert: join(folder, 'cert.pem'), key: join(folder, 'key.pem') };
    expect(readTlsPair(files)).toEqual({ cert: pem.cert, key: pem.key });
  });

  it.each([
    [
      'a missing certificate',
      { cert: 'missing.pem', key: 'key.pem' },
      /^REPORTS_TLS_CERT .*missing\.pem cannot be read: there is no such file$/,
    ],
    [
      'a key that is a folder',
      { cert: 'cert.pem', key: '.' },
      /^REPORTS_TLS_KEY .* cannot be read: it is a folder$/,
    ],
    [
      'a key of another certificate',
      { cert: 'cert.pem', key: 'other-key.pem' },
      /^REPORTS_TLS_CERT .*cert\.pem and REPORTS_TLS_KEY .*other-key\.pem are not a PEM certificate and its private key \(.*\)$/,
    ],
    [
      'a certificate that is no PEM',
      { cert: 'not-pem.txt', key: 'key.pem' },
      /^REPORTS_TLS_CERT .*not-pem\.txt and REPORTS_TLS_KEY .* are not a PEM certificate and its private key/,
    ],
  ])('refuses %s in one line naming the variable', (_, files, message) => {
    const paths = { cert: join(folder, files.cert), key: join(folder, files.key) };
    expect(() => readTlsPair(paths)).toThrow(message);
    try {
      readTlsPair(paths);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });
});
