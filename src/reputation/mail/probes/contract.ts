import type { TlsaLookup as DnsTlsaLookup, TlsaOutcome } from '../../../dns/index.js';
import type { SmtpProbe } from '../../results/index.js';

/**
 * What the mail check asks of its runtime, passed in (docs/edge.md): an SMTP probe of one MX
 * address, the MTA-STS policy over HTTPS, and TLSA records with their DNSSEC status. Each is
 * given the exact address the check resolved and judged reachable, and connects there only
 * (no DNS of its own, so no rebinding); each ends when `signal` aborts.
 */

/**
 * Whether the check may reach PROBE_ALLOW_NETWORKS: only the operator's (a check or watch sent
 * with OPERATOR_TOKEN); every other reaches public addresses only.
 */
export interface ProbeReach {
  operator?: boolean;
}

/**
 * Whose check a probe is for, for the fair shares of the probe slots (`shareProbes`, shares.ts): an
 * interactive check's caller (its quota subject), or a watch's re-check (not interactive).
 */
export interface ProbeParty extends ProbeReach {
  caller?: string;
  interactive?: boolean;
}

export interface SmtpProbeRequest extends ProbeParty {
  /** The MX host: the EHLO's peer, the TLS SNI and the name the certificate must match. */
  host: string;
  address: string;
  signal: AbortSignal;
}

/**
 * Greeting, EHLO, STARTTLS, the TLS handshake with SNI, QUIT; never MAIL FROM or RCPT TO. A
 * runtime that cannot open TCP port 25 (Workers) passes `{ unavailable: reason }` instead.
 */
export interface SmtpProber {
  probe(request: SmtpProbeRequest): Promise<SmtpProbe>;
}

export interface PolicyFetchRequest extends ProbeReach {
  /** `mta-sts.<domain>`: the SNI, the Host header and the name the certificate must match. */
  host: string;
  address: string;
  path: string;
  signal: AbortSignal;
}

export type PolicyFetchResult =
  { ok: true; body: string; contentType: string | null } | { ok: false; reason: string };

/** RFC 8461 §3.3: one GET, a certificate valid for the host, no redirects, bounded size and time. */
export interface PolicyFetcher {
  fetch(request: PolicyFetchRequest): Promise<PolicyFetchResult>;
}

/**
 * TLSA records (RFC 6698 §2) at a name, with the AD bit of the resolver's answer: the DNS layer's
 * types (src/dns/tlsa.ts), whose DoH lookup both runtimes can use; Node's UDP lookup answers the same.
 */
export type TlsaAnswer = TlsaOutcome;
export type TlsaLookup = DnsTlsaLookup;

/** The probe of an MX host that was not connected to, and why. */
export function notProbed(detail: string, address: string | null = null): SmtpProbe {
  return {
    status: 'not_probed',
    stage: null,
    address,
    banner: null,
    starttls: null,
    tls: null,
    certificate: null,
    detail,
  };
}

/**
 * The mail check's probes as a runtime gives them (docs/mail.md, "Bounds and safety"): Node builds
 * them from its configuration (src/node/probes/), Workers with `fetch` and no SMTP
 * (src/workers/probes/); both with the one rule of where a probe may connect.
 */
export interface MailProbes {
  /**
   * Whether the operator's probe may connect to an address: public (RFC 6890) or in
   * PROBE_ALLOW_NETWORKS. Every other check's probes reach public addresses only (`reachableBy`).
   */
  reachable: (address: string) => boolean;
  smtp: SmtpProber | { unavailable: string };
  policy: PolicyFetcher;
  /** TLSA with the AD bit; without it DANE is reported not checked. */
  tlsa?: TlsaLookup;
  /** SMTP_TIMEOUT_MS: a probe stage's bound; the probes end this plus `probeMarginMs` after a check starts. */
  timeoutMs: number;
}

/** What the probes may take past one stage's bound: the check answers within SMTP_TIMEOUT_MS and this. */
export const probeMarginMs = 3000;

/** SMTP_TIMEOUT_MS's default: where the runtime reads no such variable (Workers), the bound. */
export const defaultProbeTimeoutMs = 10_000;
