/**
 * "Listed since" (docs/watches.md, "Listed since"): each listing a watch knows carries the time of
 * the check that first recorded it, kept while the listing lasts. Over the facts' structural
 * shape (a list fact: `what` is `list`, `subject` its zone, `address` a sender address), so this
 * folder needs nothing from the engine above it (docs/layout.md).
 */

/** A fact as far as "listed since" reads it. */
export interface SinceFact {
  what: string;
  subject: string;
  address?: string | undefined;
  value: string;
  since?: string | undefined;
}

const isListing = (fact: SinceFact) => fact.what === 'list' && fact.value === 'listed';

const sameListing = (a: SinceFact, b: { zone: string; address?: string | undefined }) =>
  a.what === 'list' && a.subject === b.zone && a.address === b.address;

/**
 * `facts` with `since` set on every listing: the previous facts' when it was listed then (an
 * older state without it stays without: the watch does not know when that listing began), else
 * `at`, the check that records it now (the first check, or the one that confirmed it). A fact that
 * is not a listing carries none.
 */
export function stampSince<F extends SinceFact>(
  previous: readonly SinceFact[] | undefined,
  facts: readonly F[],
  at: string,
): F[] {
  const listedBefore = new Map<string, SinceFact>();
  for (const fact of previous ?? []) {
    if (isListing(fact)) listedBefore.set(listingId(fact.subject, fact.address), fact);
  }
  return facts.map((fact) => {
    const { since: _dropped, ...rest } = fact;
    if (!isListing(fact)) return fact.what === 'list' ? (rest as F) : fact;
    const before = listedBefore.get(listingId(fact.subject, fact.address));
    if (before) return (before.since === undefined ? rest : { ...rest, since: before.since }) as F;
    return { ...rest, since: at } as F;
  });
}

function listingId(zone: string, address: string | undefined): string {
  return JSON.stringify([zone, address ?? null]);
}

/** Where the target is listed, each with its `since` when the watch knows it. */
export function withSince<T extends { zone: string; address?: string }>(
  listedOn: readonly T[],
  facts: readonly SinceFact[] | undefined,
): (T & { since?: string })[] {
  return listedOn.map((listing) => {
    const fact = facts?.find((each) => sameListing(each, listing));
    return fact && isListing(fact) && fact.since !== undefined
      ? { ...listing, since: fact.since }
      : listing;
  });
}
