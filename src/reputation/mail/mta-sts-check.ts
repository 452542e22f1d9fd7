import type { Resolver } from '../../dns/index.js';
import { cleanThirdPartyText } from '../../lib/index.js';
import type { MtaSts } from '../results/index.js';
import { clip } from '../results/index.js';
import {
  isPolicyMediaType,
  isStsRecord,
  parsePolicy,
  policyHost,
  policyPath,
  readStsRecords,
  uncoveredMx,
} from './mta-sts.js';
import type { PolicyFetcher } from './probes/index.js';

/**
 * MTA-STS as a sender sees it (RFC 8461 §3, §4): the TXT record, then the policy from its HTTPS
 * host, then whether it covers the MX hosts.
 */

export interface PolicyDeps {
  policy: PolicyFetcher;
  /** Where this check's fetch may connect (`reachableBy`). */
  reachable: (address: string) => boolean;
  /** The operator's check: the adapter may reach PROBE_ALLOW_NETWORKS too. */
  operator: boolean;
  signal: AbortSignal;
}

const none = { id: null, record: null, policy: null, mx_covered: null, uncovered: [] };

/** The TXT lookup at `_mta-sts.<domain>` and what follows from it. */
export async function checkMtaSts(
  dns: Resolver,
  deps: PolicyDeps,
  domain: string,
  mxHosts: Promise<readonly string[]>,
): Promise<MtaSts> {
  const txt = await dns.query(`_mta-sts.${domain}`, 'TXT');
  if (txt.status !== 'answer' && txt.status !== 'nxdomain' && txt.status !== 'nodata') {
    return {
      status: 'error',
      ...none,
      detail: `_mta-sts.${domain}: no usable DNS answer (${txt.status})`,
    };
  }
  const records = txt.status === 'answer' ? txt.records : [];
  const read = readStsRecords(records);
  if (read === undefined) return { status: 'none', ...none, detail: null };
  const record = clip(records.find(isStsRecord) ?? '', 512);
  if (!read.ok) return { status: 'invalid', ...none, record, detail: read.reason };
  const host = policyHost(domain);
  const [a, aaaa] = await Promise.all([dns.query(host, 'A'), dns.query(host, 'AAAA')]);
  const addresses = [
    ...(a.status === 'answer' ? a.records : []),
    ...(aaaa.status === 'answer' ? aaaa.records : []),
  ];
  const found = { ...none, id: read.id, record };
  const [address] = addresses;
  if (address === undefined)
    return { status: 'error', ...found, detail: `${host} has no A or AAAA record (RFC 8461 §3.3)` };
  const inside = addresses.find((each) => !deps.reachable(each));
  if (inside !== undefined) {
    return {
      status: 'error',
      ...found,
      detail: `${host} resolves to ${inside}, which is not a public address: the policy was not fetched`,
    };
  }
  const fetched = await deps.policy.fetch({
    host,
    address,
    path: policyPath,
    operator: deps.operator,
    signal: deps.signal,
  });
  // What the policy's server sent (its body's lines, its Content-Type, its errors) enters the
  // result here, on both runtimes: cleaned as third-party text (src/lib/third-party-text.ts).
  if (!fetched.ok) {
    const reason = cleanThirdPartyText(fetched.reason);
    return { status: 'error', ...found, detail: `https://${host}${policyPath}: ${reason}` };
  }
  // §3.3: the policy is served as text/plain; a sender must not apply one served otherwise.
  if (!isPolicyMediaType(fetched.contentType)) {
    return {
      status: 'invalid',
      ...found,
      detail: `served as ${cleanThirdPartyText(fetched.contentType ?? 'no Content-Type', 100)}, not text/plain (RFC 8461 §3.3)`,
    };
  }
  const parsed = parsePolicy(fetched.body);
  if (!parsed.ok) {
    const reason = cleanThirdPartyText(parsed.reason);
    return { status: 'invalid', ...found, detail: `the policy: ${reason} (RFC 8461 §3.2)` };
  }
  const uncovered = uncoveredMx(await mxHosts, parsed.policy);
  return {
    status: parsed.policy.mode,
    ...found,
    policy: parsed.policy,
    mx_covered: parsed.policy.mode === 'none' ? null : uncovered.length === 0,
    uncovered: parsed.policy.mode === 'none' ? [] : uncovered,
    detail:
      uncovered.length > 0 && parsed.policy.mode !== 'none'
        ? `MX hosts no mx pattern matches: ${uncovered.join(', ')}; senders enforcing the policy will not deliver to them (RFC 8461 §4.1)`
        : null,
  };
}
