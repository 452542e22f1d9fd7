import type { DkimKeyStatus } from '../results/index.js';
import { rsaModulusBits } from './der.js';
import { parseTagList } from '../checks/index.js';

/**
 * A DKIM key record (RFC 6376 §3.6.1) read for what a sender needs to know: is there a usable
 * key, of which type and size, and is the domain only testing.
 */

export interface DkimKey {
  status: Exclude<DkimKeyStatus, 'none'>;
  key_type: 'rsa' | 'ed25519' | null;
  key_bits: number | null;
  testing: boolean;
  warning: string | null;
  detail: string | null;
}

/** RFC 8301 §3.2: verifiers must not accept RSA keys under 1024 bits, and signers should use 2048. */
export const minRsaBits = 1024;
export const advisedRsaBits = 2048;
/** RFC 8463 §4.2: an Ed25519 key is the bare 32-octet public key. */
const ed25519KeyOctets = 32;

function decodeBase64(text: string): Uint8Array | undefined {
  // §3.6.1: p= is base64 and may be folded, so white space inside it is not part of it.
  const compact = text.replace(/[ \t\r\n]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) return undefined;
  try {
    return Uint8Array.from(atob(compact), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function invalid(detail: string, fields: Partial<DkimKey> = {}): DkimKey {
  return {
    status: 'invalid',
    key_type: null,
    key_bits: null,
    testing: false,
    warning: null,
    detail,
    ...fields,
  };
}

/** Reads one key record (the TXT strings already joined). */
export function readDkimKey(record: string): DkimKey {
  const list = parseTagList(record);
  if (!list.ok) return invalid(list.reason);
  const { tags } = list;
  // §3.6.1 v=: optional, but when present it must be the first tag and exactly "DKIM1".
  const version = tags.get('v');
  if (version !== undefined && (version !== 'DKIM1' || [...tags.keys()][0] !== 'v')) {
    return invalid('v= must come first and read DKIM1');
  }
  // t=: colon-separated flags; y says the domain is testing, and verifiers treat failures as unsigned.
  const flags = (tags.get('t') ?? '').split(':').map((flag) => flag.trim());
  const testing = flags.includes('y');
  // s=: service types; a key limited to other services than email is no key for mail.
  const services = (tags.get('s') ?? '*').split(':').map((service) => service.trim());
  if (!services.includes('*') && !services.includes('email')) {
    return invalid(`s=${tags.get('s')} does not allow email`, { testing });
  }
  // k=: rsa by default; ed25519 from RFC 8463.
  const keyType = (tags.get('k') ?? 'rsa').toLowerCase();
  if (keyType !== 'rsa' && keyType !== 'ed25519') {
    return invalid(`unknown key type k=${keyType}`, { testing });
  }
  const key = tags.get('p');
  if (key === undefined) return invalid('no p= tag', { key_type: keyType, testing });
  // §3.6.1: an empty p= means the key was revoked.
  if (key.replace(/[ \t\r\n]/g, '') === '') {
    return {
      ...invalid('p= is empty: the key was revoked'),
      status: 'revoked',
      key_type: keyType,
      testing,
    };
  }
  const bytes = decodeBase64(key);
  if (!bytes) return invalid('p= is not base64', { key_type: keyType, testing });
  if (keyType === 'ed25519') {
    if (bytes.length !== ed25519KeyOctets) {
      return invalid(`an Ed25519 key has 32 octets, this one ${bytes.length}`, {
        key_type: keyType,
        testing,
      });
    }
    return {
      status: 'found',
      key_type: 'ed25519',
      key_bits: 256,
      testing,
      warning: null,
      detail: null,
    };
  }
  const bits = rsaModulusBits(bytes);
  if (bits === undefined)
    return invalid('p= is not an RSA public key', { key_type: 'rsa', testing });
  if (bits < minRsaBits) {
    return invalid(
      `an RSA key of ${bits} bits: verifiers refuse keys under ${minRsaBits} (RFC 8301 §3.2)`,
      {
        key_type: 'rsa',
        key_bits: bits,
        testing,
      },
    );
  }
  return {
    status: 'found',
    key_type: 'rsa',
    key_bits: bits,
    testing,
    warning:
      bits < advisedRsaBits
        ? `an RSA key of ${bits} bits: ${advisedRsaBits} is advised (RFC 8301 §3.2)`
        : null,
    detail: null,
  };
}
