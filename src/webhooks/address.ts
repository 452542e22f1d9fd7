import type { Resolver } from '../dns/index.js';
import { type Reachable, refusal, webhookHost } from './url.js';

/**
 * Where a delivery connects, decided at each delivery (docs/watches.md, "Safety"): a literal
 * address as it is; a host name resolved afresh (A and AAAA, through the service's resolver,
 * past its cache) and refused when ANY of its addresses may not be reached, so a name that points
 * inside as well as outside is refused whichever address a client would pick. The address
 * returned is the one the runtime connects to.
 */
export type WebhookAddress =
  { ok: true; address: string } | { ok: false; outcome: 'refused' | 'failed'; reason: string };

export async function webhookAddress(
  url: string,
  resolver: Resolver,
  reachable: Reachable,
): Promise<WebhookAddress> {
  const host = webhookHost(new URL(url));
  const refused = refusal(host, reachable);
  if (refused) return { ok: false, outcome: 'refused', reason: refused };
  if (host.kind === 'address') return { ok: true, address: host.address };
  const fresh = { bypassCache: true };
  const [a, aaaa] = await Promise.all([
    resolver.query(host.name, 'A', fresh),
    resolver.query(host.name, 'AAAA', fresh),
  ]);
  const addresses = [
    ...(a.status === 'answer' ? a.records : []),
    ...(aaaa.status === 'answer' ? aaaa.records : []),
  ];
  const [first] = addresses;
  if (first === undefined) {
    return { ok: false, outcome: 'failed', reason: `${host.name} did not resolve (${a.status})` };
  }
  const inside = addresses.find((address) => !reachable(address));
  if (inside !== undefined) {
    return {
      ok: false,
      outcome: 'refused',
      reason: `${host.name} resolves to ${inside}, which is not a public address`,
    };
  }
  return { ok: true, address: first };
}
