import type { Certificate, MailMxHost, RequirementRule } from '../results/index.js';
import { inboundTlsSource } from './provider-requirements.js';
import type { Finding } from './requirement-rules.js';
import { isCapacityShortage, serviceLimitOf } from './probes/index.js';

/**
 * TLS, judged on the side each rule is about. The providers' TLS rule (Gmail: "use a TLS
 * connection for transmitting email") is about the sender's outgoing connections, which nobody
 * outside can see; the receiving MX servers' STARTTLS (RFC 3207) is a sound check of its own,
 * `inbound_tls`, which no provider's verdict requires, and an MX certificate that does not verify
 * is a finding of its own with Node's reason.
 */

export function tlsFinding(): Finding {
  return {
    status: 'unknown',
    detail:
      'the sending servers’ TLS cannot be seen from outside: only the mail they send shows it (the Received headers); the MX servers’ STARTTLS is inbound_tls, a rule of its own',
  };
}

export function inboundTlsFinding(mx: readonly MailMxHost[]): Finding {
  if (mx.length === 0) return { status: 'unknown', detail: 'no MX host to probe' };
  const withoutTls = mx
    .filter((host) => host.smtp.status === 'no_starttls')
    .map((host) => host.host);
  if (withoutTls.length > 0) {
    return {
      status: 'fail',
      detail: `no STARTTLS on ${withoutTls.join(', ')}: mail to ${withoutTls.length === 1 ? 'it' : 'them'} travels unencrypted (RFC 3207)`,
    };
  }
  // A host not probed for the service's own limits (its capacity, a destination's bound) is not seen, not silent: STARTTLS is not
  // known this time, never a warning (a watch would read pass, warn, pass from a busy minute).
  const shortHosts = mx.filter((host) => isCapacityShortage(host.smtp));
  const short = shortHosts.map((host) => host.host);
  if (short.length > 0) {
    const limits = new Set(shortHosts.map((host) => serviceLimitOf(host.smtp)));
    return {
      status: 'unknown',
      detail: `${short.join(', ')} not probed this time (${[...limits].join('; ')}): STARTTLS is not known`,
    };
  }
  const ok = mx.filter((host) => host.smtp.status === 'ok');
  if (ok.length === 0) {
    return { status: 'unknown', detail: 'no MX host could be probed: STARTTLS is not known' };
  }
  if (ok.length < mx.length) {
    const silent = mx.filter((host) => host.smtp.status !== 'ok').map((host) => host.host);
    return {
      status: 'warn',
      detail: `STARTTLS on ${ok.length} of ${mx.length} MX hosts probed; ${silent.join(', ')} could not be probed`,
    };
  }
  return { status: 'pass', detail: 'STARTTLS on every MX host probed' };
}

/** The rule as the result carries it: no provider requires it. */
export function inboundTlsRule(finding: Finding): RequirementRule {
  return { rule: 'inbound_tls', required: false, ...finding, source: inboundTlsSource };
}

/** An MX host whose handshake met a certificate that does not verify, with what it showed. */
export interface UnverifiedCertificate {
  host: string;
  certificate: Certificate | null;
  reason: string;
}

export function unverifiedCertificates(mx: readonly MailMxHost[]): UnverifiedCertificate[] {
  return mx.flatMap((host): UnverifiedCertificate[] => {
    if (host.smtp.status !== 'ok') return [];
    const { certificate } = host.smtp;
    if (certificate === null) {
      return [{ host: host.host, certificate, reason: host.smtp.detail ?? 'no certificate' }];
    }
    if (certificate.trusted && certificate.name_matches) return [];
    const reasons = [
      ...(certificate.name_matches
        ? []
        : [`not valid for ${host.host} (${certificate.subject_names.join(', ') || 'no names'})`]),
      ...(certificate.days_left < 0 ? [`expired on ${certificate.not_after.slice(0, 10)}`] : []),
      ...(certificate.trust_error ? [certificate.trust_error] : []),
    ];
    return [{ host: host.host, certificate, reason: reasons.join('; ') || 'not trusted' }];
  });
}
