import type {
  AddressSummary,
  DomainCheckResult,
  IpCheckResult,
  ListResult,
  MailCheckResult,
} from '../reputation/index.js';
import type { ListCatalogue } from './list-catalogue.js';
import { type MailObservation, observeMail } from './mail/index.js';
import type { KnownList, KnownLists, ListedOn, WatchStatus } from './schemas.js';

/**
 * What one check of a watch's target heard, read from the result the IP or domain check built:
 * each list that answered (listed or not listed), the sender addresses' lists for a domain, and
 * the status in brief. A list that timed out, is on hold, is disabled or answered an error is not
 * in `lists`: it said nothing, so it cannot move what the watch knows (changes.ts).
 */
export interface Observation {
  lists: KnownLists;
  /** For a domain: each checked sender address's lists that answered. */
  addresses?: Record<string, KnownLists>;
  /** For a mail watch: the facts of its mail setup the check showed (src/watch/mail/). */
  mail?: MailObservation;
  status: WatchStatus;
}

export function observeIp(result: IpCheckResult): Observation {
  const { ip_score: score } = result;
  return {
    lists: answeredLists(score.lists),
    status: {
      verdict: score.verdict,
      score: score.score,
      listed_on: listedOn(score.lists),
      lists: score.lists,
    },
  };
}

/** A mail check: no lists, its mail facts, and its mail score as the status (docs/watches.md). */
export function observeMailCheck(result: MailCheckResult): Observation {
  const mail = observeMail(result);
  const { mail_score: score } = result;
  return {
    lists: {},
    mail,
    status: {
      verdict: score.verdict,
      score: score.score,
      listed_on: [],
      lists: [],
      mail: mail.brief,
    },
  };
}

export function observeDomain(result: DomainCheckResult, catalogue: ListCatalogue): Observation {
  const { domain_score: score, addresses } = result;
  return {
    lists: answeredLists(score.lists),
    addresses: Object.fromEntries(
      addresses.results.map((address) => [address.ip, addressLists(address, catalogue)]),
    ),
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

function answeredLists(lists: readonly ListResult[]): KnownLists {
  const known: KnownLists = {};
  for (const list of lists) {
    if (list.status === 'listed') {
      known[list.zone] = listed(list.name, list.codes ?? [], meaningOf(list), list.delist_url);
    } else if (list.status === 'clean' || list.status === 'allowlisted') {
      // An allowlist's hit is good news, never a listing: for a watch it answered "not listed".
      known[list.zone] = { status: 'not_listed', name: list.name };
    }
  }
  return known;
}

/**
 * A sender address's summary names the lists that list it and those that did not answer; every
 * other list it was asked on answered that it is not listed.
 */
function addressLists(address: AddressSummary, catalogue: ListCatalogue): KnownLists {
  const known: KnownLists = {};
  const silent = new Set(address.unanswered.map((list) => list.zone));
  for (const listing of address.listings) {
    const delist = catalogue.delistUrl(listing.zone);
    known[listing.zone] = listed(listing.name, listing.codes ?? [], listing.detail, delist);
  }
  for (const { zone, name } of catalogue.listsFor(address.ip)) {
    if (!Object.hasOwn(known, zone) && !silent.has(zone))
      known[zone] = { status: 'not_listed', name };
  }
  return known;
}

function listed(
  name: string,
  codes: readonly string[],
  meaning: string,
  delistUrl: string | undefined,
): KnownList {
  return {
    status: 'listed',
    name,
    codes: [...codes],
    meaning,
    ...(delistUrl ? { delist_url: delistUrl } : {}),
  };
}

function meaningOf(list: ListResult): string {
  return (list.listings ?? []).map((listing) => listing.meaning).join('; ');
}

function listedOn(lists: readonly ListResult[]): ListedOn[] {
  return lists.filter((list) => list.status === 'listed').map(({ zone, name }) => ({ zone, name }));
}
