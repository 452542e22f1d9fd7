import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';

/**
 * The certificate the SMTP door offers STARTTLS with (REPORTS_TLS_CERT, REPORTS_TLS_KEY): both PEM
 * files read once, at start, and checked as a pair, so that a file that is missing, unreadable or
 * not the key of its certificate stops the start with one line naming the variable
 * (docs/configuration.md#start-up-failures) instead of failing each client's handshake later.
 */

export interface TlsPair {
  cert: string;
  key: string;
}

function readPem(variable: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'there is no such file'
        : code === 'EACCES'
          ? 'this user may not read it'
          : code === 'EISDIR'
            ? 'it is a folder'
            : String((error as Error).message);
    throw new Error(`${variable} ${path} cannot be read: ${why}`, { cause: error });
  }
}

export function readTlsPair(files: { cert: string; key: string }): TlsPair {
  const pair = {
    cert: readPem('REPORTS_TLS_CERT', files.cert),
    key: readPem('REPORTS_TLS_KEY', files.key),
  };
  try {
    createSecureContext(pair);
  } catch (error) {
    const reason = (error as Error).message.replace(/^error:[0-9A-F]+:/i, '');
    throw new Error(
      `REPORTS_TLS_CERT ${files.cert} and REPORTS_TLS_KEY ${files.key} are not a PEM certificate and its private key (${reason})`,
      { cause: error },
    );
  }
  return pair;
}
