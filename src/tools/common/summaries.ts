import {
  type AddressSummary,
  bySeverity,
  displayName,
  type ListResult,
  worstSeverity,
} from '../../reputation/index.js';
import type { NextStep, ShareListing, ShareSummary } from '../../share/index.js';

/**
 * What every tool's summary (src/tools/<tool>/summary.ts) is read with: a stored result becomes
 * the tool-independent summary its badge, card and share page show.
 */

/**
 * The target fields of a summary from a checked name's ASCII form. Worked out here rather than
 * read from a stored `display`, so results stored before a change of the rule show by today's.
 */
export function shownAs(ascii: string): Pick<ShareSummary, 'target' | 'lookAlike'> {
  const { display, mixedScripts } = displayName(ascii);
  return { target: display, ...(mixedScripts ? { lookAlike: mixedScripts } : {}) };
}

/** The lists that list a target, most severe first. */
export function listingsOf(lists: readonly ListResult[]): ShareListing[] {
  return lists
    .filter((list) => list.status === 'listed')
    .map((list) => ({
      list: list.name,
      detail:
        (list.listings ?? []).map((listing) => listing.meaning).join('; ') ||
        (list.codes ?? []).join(', '),
      severity: list.listings
        ? worstSeverity(list.listings.map((listing) => listing.severity))
        : list.severity,
      steps: [
        {
          ...stepOf(list.name, list),
          ...(isPolicyOnly(list.listings) ? { policy: true } : {}),
        },
      ],
    }))
    .sort(bySeverity);
}

/** Every listing a policy listing: the list says "send through a relay", not "spam". */
function isPolicyOnly(listings: readonly { policy?: true }[] | undefined): boolean {
  return listings !== undefined && listings.length > 0 && listings.every((l) => l.policy);
}

/** One list's next step, from the URLs a result carries (`lookup_url`, `delist_url`). */
function stepOf(list: string, urls: { lookup_url?: string; delist_url?: string }): NextStep {
  return {
    list,
    ...(urls.lookup_url ? { lookupUrl: urls.lookup_url } : {}),
    ...(urls.delist_url ? { delistUrl: urls.delist_url } : {}),
  };
}

/** An address and the lists it is on, as severe as its worst listing. */
export function addressListing(address: AddressSummary, sender: boolean): ShareListing {
  const lists = address.listings.map((listing) => listing.name);
  return {
    list: sender ? `Sender IP ${address.ip}` : address.ip,
    detail: `listed on ${lists.join(', ')}`,
    severity: worstSeverity(address.listings.map((listing) => listing.severity)),
    address: { ip: address.ip, sender, lists },
    steps: address.listings.map((listing) => ({
      ...stepOf(listing.name, listing),
      ...(listing.policy ? { policy: true } : {}),
    })),
  };
}
