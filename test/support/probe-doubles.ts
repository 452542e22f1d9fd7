import { X509Certificate } from 'node:crypto';
import { hostname } from 'node:os';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import type { Pem } from '../../fixtures/mail-world.js';
import { greetingBoundMs } from '../../src/node/probes/index.js';
import {
  notProbed,
  type PolicyFetcher,
  reachableBy,
  type PolicyFetchRequest,
  type SmtpProber,
  type SmtpProbeRequest,
} from '../../src/reputation/mail/index.js';
import type { SmtpProbe } from '../../src/reputation/results/index.js';

/**
 * The mail check's SMTP probe and MTA-STS policy fetch answered in this process, for the tests of
 * what the check makes of their answers, where the wire adds nothing (docs/decisions.md, "The
 * test run"). Each address answers as the Node probes report the server of fixtures/mail-world.ts
 * it stands for, on a real certificate issued by the run's test CA: its names, its expiry, and
 * Node's own host name rule (`tls.checkServerIdentity`). No socket, no handshake, no tarpit's
 * wait. The probes' own suites speak SMTP, STARTTLS and HTTPS to those servers
 * (test/node/probes/), and the mail check's suite holds these answers to the wire's
 * (test/reputation/mail/mail-check.test.ts).
 */

/** A server of the mail world, as a probe meets it at its address. */
export type MxServer =
  /** startSmtpServer with `tls`: STARTTLS on `certificate`, which the run's test CA issued. */
  | { kind: 'starttls'; certificate: Pem }
  /** startSmtpServer without `tls`: no STARTTLS offered. */
  | { kind: 'plain' }
  /** startTarpit: accepts and never greets, so the probe's greeting stage times out. */
  | { kind: 'tarpit' };

export interface ProbeDoubleOptions {
  /** The prober's SMTP_TIMEOUT_MS, which a tarpit's answer names. */
  timeoutMs: number;
  /** PROBE_ALLOW_NETWORKS' rule: the probes refuse what it refuses, as Node's do. */
  reachable: (address: string) => boolean;
  now?: () => Date;
}

export interface SmtpProberDouble extends SmtpProber {
  /** Every probe asked for, in order. */
  readonly requests: readonly SmtpProbeRequest[];
}

export interface PolicyFetcherDouble extends PolicyFetcher {
  /** Every fetch asked for, in order. */
  readonly requests: readonly PolicyFetchRequest[];
}

const dayMs = 86_400_000;

/** What Node's TLS client sees of `certificate` when it connects to `host` at `now`. */
function handshake(certificate: Pem, host: string, now: Date) {
  const x509 = new X509Certificate(certificate.cert);
  const notAfter = new Date(x509.validTo);
  const peer = {
    subject: { CN: x509.subject.replace(/^CN=/, '') },
    subjectaltname: x509.subjectAltName ?? '',
  } as unknown as PeerCertificate;
  return {
    expired: notAfter.getTime() <= now.getTime(),
    // RFC 6125 as Node applies it; undefined when the certificate is valid for `host`.
    nameError: checkServerIdentity(host, peer),
    certificate: {
      subject_names: (x509.subjectAltName ?? '')
        .split(', ')
        .filter((entry) => entry.startsWith('DNS:'))
        .map((entry) => entry.slice(4)),
      issuer: x509.issuer.split('\n').join(', '),
      not_after: notAfter.toISOString(),
      days_left: Math.floor((notAfter.getTime() - now.getTime()) / dayMs),
    },
  };
}

/** The SMTP probe of each address's server, as Node's probe reports it (src/node/probes/smtp-probe.ts). */
export function smtpProberDouble(
  servers: Record<string, MxServer>,
  options: ProbeDoubleOptions,
): SmtpProberDouble {
  const requests: SmtpProbeRequest[] = [];
  const now = options.now ?? (() => new Date());
  const answer = (request: SmtpProbeRequest): SmtpProbe => {
    const { address, host } = request;
    if (!reachableBy(options.reachable, request)(address))
      return notProbed(`${address} is not a public address`, address);
    const server = servers[address];
    const silent = { address, banner: null, starttls: null, tls: null, certificate: null };
    if (server === undefined) {
      return {
        status: 'refused',
        stage: 'connect',
        ...silent,
        detail: 'connect: connection refused',
      };
    }
    if (server.kind === 'tarpit') {
      // The greeting's own bound, half a stage's (src/node/probes/smtp-probe.ts).
      const detail = `greeting: no answer within ${greetingBoundMs(options.timeoutMs)} ms`;
      return { status: 'timeout', stage: 'greeting', ...silent, detail };
    }
    // smtp-server greets with the machine's name before its banner.
    const banner = `${hostname()} ESMTP test MX`;
    if (server.kind === 'plain') {
      return {
        status: 'no_starttls',
        stage: 'ehlo',
        address,
        banner,
        starttls: false,
        tls: null,
        certificate: null,
        detail: 'the server does not offer STARTTLS: mail to it travels unencrypted',
      };
    }
    const seen = handshake(server.certificate, host, now());
    const greeted = { status: 'ok' as const, stage: null, address, banner, starttls: true };
    // The probe finishes every handshake and reads the certificate whatever it is, with Node's
    // verdict: the dates are checked before the names, so an expired certificate says so first.
    const reason = seen.expired
      ? 'CERT_HAS_EXPIRED'
      : seen.nameError
        ? 'ERR_TLS_CERT_ALTNAME_INVALID'
        : null;
    return {
      ...greeted,
      // What Node 20 and smtp-server agree on by default.
      tls: { version: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384' },
      certificate: {
        ...seen.certificate,
        trusted: reason === null,
        name_matches: !seen.nameError,
        trust_error: reason,
      },
      detail: reason === null ? null : `the certificate does not verify for ${host}: ${reason}`,
    };
  };
  return {
    requests,
    probe: async (request) => {
      requests.push(request);
      return answer(request);
    },
  };
}

/** An MTA-STS policy host: its certificate, and the policy it serves at `path`. */
export interface PolicyServer {
  certificate: Pem;
  /** The policy's text, read at each fetch so that a test can change it. */
  policy: () => string;
}

/** The MTA-STS policy fetch, as Node's reports it (src/node/probes/policy-fetch.ts). */
export function policyFetcherDouble(
  servers: Record<string, PolicyServer>,
  options: Omit<ProbeDoubleOptions, 'timeoutMs'> & { port: number },
): PolicyFetcherDouble {
  const requests: PolicyFetchRequest[] = [];
  const now = options.now ?? (() => new Date());
  return {
    requests,
    fetch: async (request) => {
      requests.push(request);
      const { address, host } = request;
      if (!reachableBy(options.reachable, request)(address)) {
        return { ok: false, reason: `${address} is not a public address` };
      }
      const server = servers[address];
      if (server === undefined) {
        return { ok: false, reason: `connect ECONNREFUSED ${address}:${options.port}` };
      }
      const seen = handshake(server.certificate, host, now());
      if (seen.expired) return { ok: false, reason: 'certificate has expired' };
      if (seen.nameError) return { ok: false, reason: seen.nameError.message };
      return { ok: true, body: server.policy(), contentType: 'text/plain' };
    },
  };
}
