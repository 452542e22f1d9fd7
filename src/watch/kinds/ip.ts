import {
  checkIp,
  publicAddressesOf,
  runConfirmed,
  type Target,
  targetOf,
} from '../../reputation/index.js';
import { readWatchTarget } from './target.js';
import { defineKind, type RecheckDeps } from './kind.js';
import { observeIp } from './lists.js';

/** Addresses a note names at most. */
const maxAddressesShown = 8;

/**
 * An IP watch: an IPv4 or IPv6 address or a host name, checked as POST /ip/v1 checks it. A host
 * name keeps the address its first check checked: a name answering other addresses later (a
 * pool's rotation) is no listing change (docs/watches.md, "Host names").
 */
export const ipKind = defineKind({
  name: 'ip',
  tool: 'ip',
  takesSelectors: false,
  async recheck(deps, watch) {
    const read = readWatchTarget('ip', watch.target);
    if (!read.ok) return read;
    const pinned = watch.addresses?.[0];
    const pinnedRead = pinned === undefined ? undefined : targetOf('ip', pinned);
    const target = pinnedRead?.ok ? pinnedRead.target : read.target;
    const outcome = await runConfirmed(deps, () => checkIp(deps, target));
    if (!outcome.ok) return outcome;
    const resolvesTo =
      pinned === undefined ? undefined : await movedFrom(deps, read.target, pinned);
    const pins = pinned === undefined && read.target.kind === 'domain' ? [outcome.result.ip] : [];
    return {
      ok: true,
      observation: observeIp(outcome.result),
      result: outcome.result,
      ...(resolvesTo ? { resolvesTo } : {}),
      ...(pins.length > 0 ? { pins } : {}),
    };
  },
  views: { counts: 'lists', chart: true, lists: 'result.lists' },
});

/**
 * The addresses a pinned host name resolves to now, when its pinned address is not among them:
 * a note for the view, never a change (docs/watches.md, "Host names"). A name that does not
 * resolve now says nothing.
 */
async function movedFrom(
  deps: RecheckDeps,
  watched: Target,
  pinned: string,
): Promise<string[] | undefined> {
  if (watched.kind !== 'domain') return undefined;
  const now = await publicAddressesOf(deps.resolver, watched.name).catch(() => undefined);
  if (!now?.ok || now.addresses.includes(pinned)) return undefined;
  return now.addresses.slice(0, maxAddressesShown);
}
