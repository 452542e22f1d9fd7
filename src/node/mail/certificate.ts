import { checkServerIdentity, type PeerCertificate, type TLSSocket } from 'node:tls';
import type { Certificate } from '../../reputation/index.js';

/**
 * The certificate a server presented, as the mail check reports it. `trusted` is Node's own
 * verdict on the chain (`socket.authorized`: its trust store plus NODE_EXTRA_CA_CERTS, and the
 * validity dates); `name_matches` is Node's own host name rule (`tls.checkServerIdentity`,
 * RFC 6125). No trust decision is made here.
 */

const dayMs = 86_400_000;

/** subjectAltName's DNS names ("DNS:a, DNS:b"), else the subject's CN. */
function subjectNames(certificate: PeerCertificate): string[] {
  const alt = certificate.subjectaltname ?? '';
  const names = alt
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4));
  if (names.length > 0) return names.slice(0, 32);
  const cn = certificate.subject?.CN;
  return cn === undefined ? [] : [String(cn)];
}

function issuerOf(certificate: PeerCertificate): string {
  const issuer = certificate.issuer ?? {};
  return Object.entries(issuer)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(', ')
    .slice(0, 512);
}

/** The peer's certificate, or undefined when the server sent none. */
export function certificateOf(socket: TLSSocket, host: string, now: Date): Certificate | undefined {
  const certificate = socket.getPeerCertificate();
  if (!certificate || Object.keys(certificate).length === 0) return undefined;
  const notAfter = new Date(certificate.valid_to);
  const valid = !Number.isNaN(notAfter.getTime());
  const authorizationError = socket.authorizationError as Error | string | null | undefined;
  return {
    subject_names: subjectNames(certificate),
    issuer: issuerOf(certificate),
    not_after: valid ? notAfter.toISOString() : new Date(0).toISOString(),
    days_left: valid ? Math.floor((notAfter.getTime() - now.getTime()) / dayMs) : 0,
    trusted: socket.authorized,
    name_matches: checkServerIdentity(host, certificate) === undefined,
    trust_error:
      socket.authorized || authorizationError == null
        ? null
        : String(
            authorizationError instanceof Error ? authorizationError.message : authorizationError,
          ),
  };
}
