import { isIpv6 } from '../lib/index.js';
import { type DnsblEngine, type ListHealth, type ListStatus } from '../reputation/index.js';
import type { ListLookup, ListStateSample, Metrics, SideLabel } from './metrics.js';

/**
 * The lists' side of the metrics: what each list answered for each check, read from the DNSBL
 * engine's reports, and each side of each list's state, read from GET /lists' view. A list is
 * labelled by the zone its side is asked under (never the Spamhaus DQS name, which holds the key)
 * and by its side (docs/operations.md).
 */

/** The engine, counting each covered list's answer of every check it makes. */
export function observeDnsbl(engine: DnsblEngine, metrics: Metrics): DnsblEngine {
  return {
    async check(target, deadline) {
      const report = await engine.check(target, deadline);
      const side: SideLabel =
        target.kind === 'domain' ? 'domain' : isIpv6(target.address) ? 'ipv6' : 'ipv4';
      for (const list of report.lists) {
        if (list.not_covered) continue;
        const lookup: ListLookup = list.on_hold ? 'on_hold' : (list.status satisfies ListStatus);
        metrics.listLookup(list.zone, side, lookup);
      }
      return report;
    },
  };
}

/** Each side of each list and its state. */
export function listStateSamples(lists: readonly ListHealth[]): ListStateSample[] {
  return lists.flatMap((list): ListStateSample[] => [
    { list: list.zone, side: list.type === 'domain' ? 'domain' : 'ipv4', state: list.state },
    ...(list.ipv6 ? [{ list: list.ipv6.zone, side: 'ipv6' as const, state: list.ipv6.state }] : []),
  ]);
}
