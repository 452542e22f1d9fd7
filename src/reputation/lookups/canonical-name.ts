import type { Resolver } from '../../dns/index.js';

/**
 * RFC 1034 §3.6.2 leaves loop detection to resolvers; BIND and Unbound give up on chains of
 * about this length too.
 */
const maxCnameChain = 8;

/**
 * The name at the end of `name`'s alias chain, or `undefined` if `name` is not an alias.
 * A recursive resolver answers a CNAME question with the alias record alone, without chasing it
 * (RFC 1034 §3.6.2), so the chain is followed here one link at a time. A chain that loops or runs
 * too long ends at the last name reached; asking for its A records will then fail on its own.
 */
export async function canonicalNameOf(
  resolver: Resolver,
  name: string,
): Promise<string | undefined> {
  const visited = new Set([name.toLowerCase()]);
  let current = name;
  for (let link = 0; link < maxCnameChain; link++) {
    const outcome = await resolver.query(current, 'CNAME');
    const target = outcome.status === 'answer' ? outcome.records[0] : undefined;
    // RFC 4343: names compare case-insensitively.
    if (target === undefined || visited.has(target.toLowerCase())) break;
    visited.add(target.toLowerCase());
    current = target;
  }
  return current === name ? undefined : current;
}
