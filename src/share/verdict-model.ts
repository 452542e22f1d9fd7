import type { MessageKey } from '../i18n/index.js';
import {
  type AddressSummary,
  isInformational,
  isPolicyListing,
  type ListResult,
} from '../reputation/index.js';

/**
 * How one list's answer reads, beside the verdict and the counts (docs/verdicts.md#one-reading-of-a-result):
 * the same rule as the counts (`coverageOf`: a listing for information only is not a blocking
 * listing; a grade that costs points is a poor reputation) and the score (`hasWarning`: either
 * keeps the verdict from `good`). The pages colour each row by its tone (`status-<tone>`), so a
 * row never reads "listed" in red beside "not listed on any", nor "not listed" beside a penalty.
 */

export type ListTone =
  | ListResult['status']
  | 'informational'
  | 'poor_reputation'
  | 'good_reputation'
  | 'on_hold'
  | 'not_covered';

export interface ListReading {
  tone: ListTone;
  /** The status as the catalogs say it. */
  status: MessageKey;
}

export function readList(list: ListResult): ListReading {
  if (list.on_hold) return { tone: 'on_hold', status: 'status.onHold' };
  if (list.not_covered) return { tone: 'not_covered', status: 'status.notCovered' };
  // A policy listing (Spamhaus PBL) is no spam report, but not a mere note either: its words say
  // the address should send through its provider's relay (docs/score.md#what-receivers-require).
  if (list.status === 'listed' && isInformational(list))
    return {
      tone: 'informational',
      status: isPolicyListing(list) ? 'status.policy' : 'status.informational',
    };
  if (list.status === 'clean' && list.grade && list.grade.points < 0)
    return { tone: 'poor_reputation', status: 'status.poorReputation' };
  if (list.status === 'clean' && list.grade && list.grade.points > 0)
    return { tone: 'good_reputation', status: 'status.goodReputation' };
  return { tone: list.status, status: `status.${list.status}` };
}

/**
 * An address's lists in a domain's or pool's table: red only when one of them blocks it, the
 * plain colour of a note when every listing is for information only.
 */
export function addressTone(address: Pick<AddressSummary, 'listings'>): ListTone | undefined {
  if (address.listings.length === 0) return undefined;
  return address.listings.some((listing) => listing.severity !== 'info')
    ? 'listed'
    : 'informational';
}
