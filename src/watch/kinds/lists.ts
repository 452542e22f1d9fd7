import type {
  AddressSummary,
  DomainCheckResult,
  IpCheckResult,
  ListResult,
} from '../../reputation/index.js';
import type { FactKey, ListFact } from './facts.js';
import type { ListCatalogue } from './list-catalogue.js';
import type { Observation } from './merge.js';
import type { ListedOn } from './status.js';

/**
 * What an IP or a domain check heard of the lists, as facts: each list that answered (listed or
 * not listed), for a domain each checked sender address's too, and the status in brief. A list
 * that timed out, is on hold, is disabled or answered an error is not heard: it said nothing, so
 * it cannot move what the watch knows (merge.ts).
 */

export function observeIp(result: IpCheckResult): Observation {
  const { ip_score: score } = result;
  return {
    facts: answeredLists(score.lists),
    status: {
      verdict: score.verdict,
      score: score.score,
      listed_on: listedOn(score.lists),
      lists: score.lists,
    },
  };
}

/**
 * A domain check: its own lists, each sender address's, and the status. A sender address no
 * longer checked (its SPF or MX changed) is gone: its lists are forgotten without a change; a new
 * one is read like a list first heard, list by list.
 */
export function observeDomain(result: DomainCheckResult, catalogue: ListCatalogue): Observation {
  const { domain_score: score, addresses } = result;
  return {
    facts: [
      ...answeredLists(score.lists),
      ...addresses.results.flatMap((address) => addressLists(address, catalogue)),
    ],
    gone: senderAddressGone(addresses.results.map((address) => address.ip)),
    status: {
      verdict: score.verdict,
      score: score.score,
      listed_on: [
        ...listedOn(score.lists),
        ...addresses.results.flatMap((address) =>
          address.listings.map(({ zone, name }) => ({ zone, name, address: address.ip })),
        ),
      ],
      lists: score.lists,
      addresses: addresses.results,
    },
  };
}

/** Whether a fact is of a sender address the domain no longer has (not among those checked). */
export function senderAddressGone(checked: readonly string[]): (key: FactKey) => boolean {
  const addresses = new Set(checked);
  return (key) => key.what === 'list' && key.address !== undefined && !addresses.has(key.address);
}

function answeredLists(lists: readonly ListResult[]): ListFact[] {
  return lists.flatMap((list): ListFact[] => {
    if (list.status === 'listed') {
      return [listed(list.zone, list.name, list.codes ?? [], meaningOf(list), list.delist_url)];
    }
    // An allowlist's hit is good news, never a listing: for a watch it answered "not listed".
    if (list.status === 'clean' || list.status === 'allowlisted') {
      return [notListed(list.zone, list.name)];
    }
    return [];
  });
}

/**
 * A sender address's summary names the lists that list it and those that did not answer; every
 * other list it was asked on answered that it is not listed.
 */
function addressLists(address: AddressSummary, catalogue: ListCatalogue): ListFact[] {
  const facts: ListFact[] = address.listings.map((listing) => ({
    ...listed(
      listing.zone,
      listing.name,
      listing.codes ?? [],
      listing.detail,
      catalogue.delistUrl(listing.zone),
    ),
    address: address.ip,
  }));
  const said = new Set([
    ...address.listings.map((listing) => listing.zone),
    ...address.unanswered.map((list) => list.zone),
  ]);
  for (const { zone, name } of catalogue.listsFor(address.ip)) {
    if (!said.has(zone)) facts.push({ ...notListed(zone, name), address: address.ip });
  }
  return facts;
}

function listed(
  zone: string,
  name: string,
  codes: readonly string[],
  meaning: string,
  delistUrl: string | undefined,
): ListFact {
  return {
    what: 'list',
    subject: zone,
    value: 'listed',
    detail: { name, codes: [...codes], meaning, ...(delistUrl ? { delist_url: delistUrl } : {}) },
  };
}

function notListed(zone: string, name: string): ListFact {
  return { what: 'list', subject: zone, value: 'not_listed', detail: { name } };
}

function meaningOf(list: ListResult): string {
  return (list.listings ?? []).map((listing) => listing.meaning).join('; ');
}

function listedOn(lists: readonly ListResult[]): ListedOn[] {
  return lists.filter((list) => list.status === 'listed').map(({ zone, name }) => ({ zone, name }));
}
