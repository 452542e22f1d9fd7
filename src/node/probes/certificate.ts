import type { PeerCertificate } from 'node:tls';
import { cleanThirdPartyText } from '../../lib/index.js';
import { type Certificate, maxCertificateNames } from '../../reputation/index.js';

/**
 * The certificate a server presented, as the mail check reports it, with the verdict of Node's
 * own verification (its trust store plus NODE_EXTRA_CA_CERTS, the validity dates) and of
 * `tls.checkServerIdentity` (RFC 6125): no trust decision is made here.
 */

const dayMs = 86_400_000;
/** RFC 1035 §2.3.4: a name is at most 253 characters written out; a certificate's may be longer text. */
const maxNameChars = 253;

/** subjectAltName's DNS names ("DNS:a, DNS:b"), else the subject's CN. */
function subjectNames(certificate: PeerCertificate): string[] {
  const alt = certificate.subjectaltname ?? '';
  const names = alt
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => cleanThirdPartyText(entry.slice(4), maxNameChars));
  if (names.length > 0) return names.slice(0, maxCertificateNames);
  const cn = certificate.subject?.CN;
  return cn === undefined ? [] : [cleanThirdPartyText(String(cn), maxNameChars)];
}

function issuerOf(certificate: PeerCertificate): string {
  const issuer = certificate.issuer ?? {};
  // The issuer's names are whatever the certificate's maker wrote: cleaned as third-party text.
  return cleanThirdPartyText(
    Object.entries(issuer)
      .map(([key, value]) => `${key}=${String(value)}`)
      .join(', '),
  );
}

/**
 * What the probe reports of a certificate: `verdict` is Node's, `null` when it verified the
 * certificate for the host, else its reason (`socket.authorizationError`: `CERT_HAS_EXPIRED`,
 * `DEPTH_ZERO_SELF_SIGNED_CERT`, `ERR_TLS_CERT_ALTNAME_INVALID` ...); `nameMatches` whether it
 * is valid for the host's name, whatever the chain.
 */
export function certificateOf(
  certificate: PeerCertificate | undefined,
  judged: { verdict: string | null; nameMatches: boolean; now: Date },
): Certificate | undefined {
  const { verdict, nameMatches, now } = judged;
  if (!certificate || Object.keys(certificate).length === 0) return undefined;
  const notAfter = new Date(certificate.valid_to);
  const valid = !Number.isNaN(notAfter.getTime());
  return {
    subject_names: subjectNames(certificate),
    issuer: issuerOf(certificate),
    not_after: valid ? notAfter.toISOString() : new Date(0).toISOString(),
    days_left: valid ? Math.floor((notAfter.getTime() - now.getTime()) / dayMs) : 0,
    trusted: verdict === null,
    name_matches: nameMatches,
    trust_error: verdict,
  };
}
