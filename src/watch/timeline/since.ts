/**
 * "Listed since" (docs/watches.md, "Listed since"): each listing a watch knows carries the time of
 * the check that first recorded it, kept while the listing lasts. Structural types, so this folder
 * needs nothing from the engine above it (docs/layout.md).
 */

/** What the watch knows of one list: its status and, while listed, since when. */
export interface SinceList {
  status: 'listed' | 'not_listed';
  since?: string;
}

/** The target's lists and, for a domain, each sender address's, by zone. */
export interface SinceLists<L extends SinceList = SinceList> {
  lists: Record<string, L>;
  addresses?: Record<string, Record<string, L>>;
}

/**
 * `known` with `since` set on every listing: the previous state's when it was listed then (an
 * older state without it stays without: the watch does not know when that listing began), else
 * `at`, the check that records it now (the first check, or the one that confirmed it). A list not
 * listed carries none.
 */
export function stampSince<L extends SinceList, K extends SinceLists<L>>(
  previous: SinceLists | undefined,
  known: K,
  at: string,
): K {
  const stamp = (lists: Record<string, L>, before: Record<string, SinceList> | undefined) =>
    Object.fromEntries(
      Object.entries(lists).map(([zone, list]) => [zone, stamped(list, before?.[zone], at)]),
    );
  return {
    ...known,
    lists: stamp(known.lists, previous?.lists),
    ...(known.addresses
      ? {
          addresses: Object.fromEntries(
            Object.entries(known.addresses).map(([address, lists]) => [
              address,
              stamp(lists, previous?.addresses?.[address]),
            ]),
          ),
        }
      : {}),
  };
}

function stamped<L extends SinceList>(list: L, before: SinceList | undefined, at: string): L {
  const { since: _dropped, ...rest } = list;
  if (list.status !== 'listed') return rest as L;
  if (before?.status === 'listed') {
    return (before.since === undefined ? rest : { ...rest, since: before.since }) as L;
  }
  return { ...rest, since: at } as L;
}

/** Where the target is listed, each with its `since` when the watch knows it. */
export function withSince<T extends { zone: string; address?: string }>(
  listedOn: readonly T[],
  known: SinceLists | undefined,
): (T & { since?: string })[] {
  return listedOn.map((listing) => {
    const lists =
      listing.address === undefined ? known?.lists : known?.addresses?.[listing.address];
    const list = lists?.[listing.zone];
    return list?.status === 'listed' && list.since !== undefined
      ? { ...listing, since: list.since }
      : listing;
  });
}
