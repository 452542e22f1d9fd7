import type { MxRecord, Resolver } from '../../dns/index.js';
import { certificateNamesCover, compareIpv4, compareIpv6, isIpv6 } from '../../lib/index.js';
import type { Dane, MailMxHost, SmtpProbe } from '../results/index.js';
import { maxAddressesPerHost, maxCertificateNames, maxProbedMxHosts } from '../results/index.js';
import { isHostName } from '../targets/index.js';
import { notProbed, type ProbeParty, type SmtpProber, type TlsaLookup } from './probes/index.js';

/**
 * The domain's MX hosts as the mail check reports them: the most preferred `maxProbedMxHosts`,
 * each with every address it resolves to, and one SMTP probe of one of them, at most; and the
 * TLSA records DANE (RFC 7672) publishes for them.
 */

/** RFC 7505: a single MX of "." (preference 0 by the RFC's advice) says the domain takes no mail. */
export function isNullMx(records: readonly MxRecord[]): boolean {
  return records.some((record) => record.exchange === '' || record.exchange === '.');
}

/**
 * The MX records that name a host (RFC 5321 §2.3.5: LDH labels, RFC 1123 §2.1). A name that is
 * not one (markup, spaces, an address) is neither probed nor shown: a third party chose it, and
 * no page, chat or e-mail should carry it.
 */
export function hostNamedRecords(records: readonly MxRecord[]): MxRecord[] {
  return records.filter((record) => isHostName(record.exchange.toLowerCase().replace(/\.$/, '')));
}

/** The MX records most preferred first (RFC 5321 §5.1: lowest preference), ties by name. */
export function mostPreferred(records: readonly MxRecord[]): MxRecord[] {
  return [...records]
    .sort((a, b) => a.priority - b.priority || a.exchange.localeCompare(b.exchange))
    .slice(0, maxProbedMxHosts);
}

/** Every address of a host, A then AAAA, each family sorted, no duplicates. */
async function addressesOf(dns: Resolver, host: string): Promise<string[]> {
  const [a, aaaa] = await Promise.all([dns.query(host, 'A'), dns.query(host, 'AAAA')]);
  const ipv4 = a.status === 'answer' ? [...new Set(a.records)].sort(compareIpv4) : [];
  const ipv6 =
    aaaa.status === 'answer' ? [...new Set(aaaa.records)].filter(isIpv6).sort(compareIpv6) : [];
  return [...ipv4, ...ipv6];
}

export interface ProbeDeps {
  smtp: SmtpProber | { unavailable: string };
  /** Where this check's probes may connect (`reachableBy`). */
  reachable: (address: string) => boolean;
  /** Whose check it is: the operator's reaches PROBE_ALLOW_NETWORKS; the shares count the rest. */
  party: ProbeParty;
  signal: AbortSignal;
}

/**
 * Whether a host may be probed: its first address, IPv4 first, when every address it has may be
 * reached (a host that points inside as well as outside is not probed, as a webhook that does is
 * not delivered, docs/watches.md); else why not.
 */
function probeTarget(
  deps: ProbeDeps,
  host: string,
  addresses: readonly string[],
): { address: string; prober: SmtpProber } | { refused: SmtpProbe } {
  const [first] = addresses;
  if (first === undefined) return { refused: notProbed(`${host} has no A or AAAA record`) };
  const inside = addresses.find((address) => !deps.reachable(address));
  if (inside !== undefined) {
    return {
      refused: notProbed(
        `${host} resolves to ${inside}, which is not a public address: nothing connects there`,
        inside,
      ),
    };
  }
  if ('unavailable' in deps.smtp) return { refused: notProbed(deps.smtp.unavailable, first) };
  return { address: first, prober: deps.smtp };
}

/**
 * A session's probe as another MX name at its address reads it: the same greeting, STARTTLS and
 * handshake, the certificate's names judged for this name (RFC 6125 §6.4), and its trust as the
 * chain's verdict plus that match, as the runtime judges the session's own name. Undefined when
 * the names cannot say no for certain (the list shown is cut, or a name holds a partial wildcard
 * the runtime may accept): that name gets a session of its own.
 */
export function asSeenBy(probe: SmtpProbe, host: string): SmtpProbe | undefined {
  const { certificate } = probe;
  if (probe.status !== 'ok' || certificate === null) return probe;
  const nameMatches = certificateNamesCover(certificate.subject_names, host);
  const uncertain =
    certificate.subject_names.length >= maxCertificateNames ||
    certificate.subject_names.some((name) => /\*./.test(name) && !name.startsWith('*.'));
  if (!nameMatches && uncertain) return undefined;
  const chainVerified = certificate.trusted || certificate.trust_error === nameMismatch;
  const trustError = !chainVerified ? certificate.trust_error : nameMatches ? null : nameMismatch;
  return {
    ...probe,
    certificate: {
      ...certificate,
      trusted: trustError === null,
      name_matches: nameMatches,
      trust_error: trustError,
    },
    detail:
      trustError === null ? null : `the certificate does not verify for ${host}: ${trustError}`,
  };
}

/** Node's `authorizationError` for a chain that verifies but does not name the host. */
const nameMismatch = 'ERR_TLS_CERT_ALTNAME_INVALID';

export async function checkMxHosts(
  dns: Resolver,
  deps: ProbeDeps,
  records: readonly MxRecord[],
): Promise<MailMxHost[]> {
  const hosts = mostPreferred(records).map(({ exchange, priority }) => {
    const host = exchange.toLowerCase().replace(/\.$/, '');
    return { host, preference: priority, addresses: addressesOf(dns, host) };
  });
  // One SMTP session per distinct address (docs/mail.md, "Bounds and safety"), opened for the
  // most preferred name there (its EHLO peer and TLS SNI, RFC 6066 §3); every other name at that
  // address shares its facts, its certificate judged again for that name (`asSeenBy`). A name's
  // session starts once it and every more preferred name have their addresses, so the session
  // of an address is its most preferred name's, and a slow name delays only the less preferred.
  const sessions = new Map<string, Promise<SmtpProbe>>();
  const probeOf = (host: string, addresses: readonly string[]): Promise<SmtpProbe> => {
    const target = probeTarget(deps, host, addresses);
    if ('refused' in target) return Promise.resolve(target.refused);
    const open = () =>
      target.prober.probe({ host, address: target.address, ...deps.party, signal: deps.signal });
    const shared = sessions.get(target.address);
    if (shared !== undefined) return shared.then((probe) => asSeenBy(probe, host) ?? open());
    const probe = open();
    sessions.set(target.address, probe);
    return probe;
  };
  const probes: Promise<SmtpProbe>[] = [];
  const resolved: string[][] = [];
  for (const { host, addresses } of hosts) {
    const found = await addresses;
    resolved.push(found);
    probes.push(probeOf(host, found));
  }
  const smtp = await Promise.all(probes);
  return hosts.map(({ host, preference }, at) => ({
    host,
    preference,
    addresses: resolved[at]!.slice(0, maxAddressesPerHost),
    smtp: smtp[at]!,
  }));
}

/**
 * A connection-stage failure at every probed host (refused, or no answer to the TCP handshake)
 * says more about this server's network than about the domain: many hosts block port 25 out.
 */
export function port25MayBeBlocked(hosts: readonly MailMxHost[]): boolean {
  const probed = hosts.filter((host) => host.smtp.status !== 'not_probed');
  return probed.length > 0 && probed.every((host) => host.smtp.stage === 'connect');
}

/** RFC 7672 §2.2: the TLSA records of an MX host are at `_25._tcp.<host>`. */
export function tlsaName(host: string): string {
  return `_25._tcp.${host}`;
}

export async function checkDane(
  lookup: TlsaLookup | undefined,
  hosts: readonly string[],
  signal: AbortSignal,
): Promise<Dane> {
  if (lookup === undefined) {
    return {
      status: 'not_checked',
      validating: null,
      hosts: [],
      detail:
        'this service’s resolver cannot ask for TLSA records with their DNSSEC status: DANE is not checked',
    };
  }
  const answers = await Promise.all(
    hosts.map(async (host) => ({ host, answer: await lookup(tlsaName(host), signal) })),
  );
  const results = answers.map(({ host, answer }) => {
    if (answer.status === 'answer') {
      return {
        host,
        status: 'found' as const,
        authenticated: answer.authenticated,
        records: answer.records,
      };
    }
    if (answer.status === 'nxdomain' || answer.status === 'nodata') {
      return { host, status: 'none' as const, authenticated: answer.authenticated, records: [] };
    }
    return { host, status: 'error' as const, authenticated: null, records: [] };
  });
  const answered = results.filter((result) => result.authenticated !== null);
  const secure = answered.some((result) => result.authenticated === true);
  // No AD on any answer: the resolver does not validate, or it does and the MX hosts' zones are
  // not signed (AD marks secure answers only, RFC 4035 §3.2.3), the common case. The root zone
  // is signed, so a validating resolver's answer about it carries AD: one more question tells
  // the two apart, and "does not validate" is said only of a resolver that does not.
  const unsigned =
    answered.length > 0 && !secure && (await authenticatedAt(lookup, signedName, signal));
  const validating = answered.length === 0 ? null : secure || unsigned;
  const found = results.some((result) => result.status === 'found');
  // RFC 7672 §2.2: TLSA records count only when DNSSEC validates them; the AD bit is how a
  // validating resolver says it did (RFC 4035 §3.2.3).
  const detail =
    validating === false
      ? 'the resolver does not validate DNSSEC (no AD bit): TLSA records, if any, cannot be trusted from here, so DANE is not judged'
      : unsigned
        ? found
          ? 'the MX hosts’ zones are not signed with DNSSEC: their TLSA records cannot be used for DANE (RFC 7672 §2.2)'
          : 'no TLSA records for the MX hosts, whose zones are not signed with DNSSEC (DANE needs them signed, RFC 7672 §2.2)'
        : found
          ? null
          : 'no TLSA records for the MX hosts';
  return { status: found ? 'found' : 'none', validating, hosts: results, detail };
}

/** The root zone, signed since July 2010: an answer about it is secure at any validating resolver. */
const signedName = '.';

/** Whether the resolver's answer about `name` carries the AD bit. */
async function authenticatedAt(
  lookup: TlsaLookup,
  name: string,
  signal: AbortSignal,
): Promise<boolean> {
  const answer = await lookup(name, signal);
  return 'authenticated' in answer && answer.authenticated;
}
