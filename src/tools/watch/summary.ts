import { bySeverity, coverageOf } from '../../reputation/index.js';
import type { ShareSummary } from '../../share/index.js';
import {
  dayStrip,
  listingSteps,
  maxHistory,
  type Step,
  type WatchView,
  watchKinds,
} from '../../watch/index.js';
import { addressListing, listingsOf, shownAs } from '../common/index.js';

/**
 * A watch's current state read as what its live badge, card and share page show: the lists of
 * its last check (for a domain, the domain lists and its listed sender addresses), as the IP and
 * domain tools read their results, under the watch's own name, so the badge says it is live
 * (`watch 192.0.2.7 | clean on 33 lists · 97/100`).
 */
export function summariseWatch(stored: Record<string, unknown>): ShareSummary {
  const watch = stored as unknown as WatchView;
  const status = watch.status;
  const mail = status?.mail;
  if (watchKinds[watch.kind].views.counts === 'requirements') {
    // A mail watch reads as a mail check: the mail score, and each provider's verdict; it is named
    // a mail watch on its page, badge and card.
    return {
      tool: 'watch.mail',
      counts: 'requirements',
      ...shownAs(watch.target),
      verdict: status?.verdict ?? 'unknown',
      score: status?.score ?? null,
      listed: 0,
      checked: 0,
      listings: [],
      ...(mail ? { providers: mail.providers } : {}),
      ...(mail?.unseen ? { providersUnseen: mail.unseen } : {}),
      checkedAt: watch.checked_at ?? watch.created_at,
    };
  }
  const lists = status?.lists ?? [];
  const coverage = coverageOf(lists);
  const addresses = status?.addresses;
  const senderListings = (addresses ?? [])
    .filter((address) => address.listed > 0)
    .map((address) => addressListing(address, true));
  return {
    tool: 'watch',
    counts: 'lists',
    // An address is shown as it is; a name in display form (an IDN in Unicode).
    ...(isAddress(watch.target) ? { target: watch.target } : shownAs(watch.target)),
    verdict: status?.verdict ?? 'unknown',
    score: status?.score ?? null,
    listed: coverage.blocking,
    checked: coverage.answered,
    coverage,
    listings: [...listingsOf(lists), ...senderListings].sort(bySeverity),
    ...(addresses
      ? {
          addresses: {
            total: addresses.length,
            listed: addresses.filter((address) => address.listed > 0).length,
          },
        }
      : {}),
    days: lastDays(watch),
    checkedAt: watch.checked_at ?? watch.created_at,
  };
}

/**
 * A watch's listings from change to change (src/watch/timeline/): read back from the current
 * status through the history, from its creation, or from its oldest entry kept when the history
 * has dropped older ones. The watch page's chart and the card's strip draw them.
 */
export function watchSteps(watch: WatchView): { start: string; steps: Step[] } {
  const { history } = watch;
  const oldest = history.at(-1);
  const start = history.length >= maxHistory && oldest ? oldest.at : watch.created_at;
  return { start, steps: listingSteps(watch.status?.listed_on ?? [], history, start) };
}

/**
 * The last 30 days as the live card's strip (docs/watches.md, "Chart and strip"), up to the last
 * check: the card is drawn anew with each.
 */
function lastDays(watch: WatchView) {
  return dayStrip(watchSteps(watch).steps, watch.checked_at ?? watch.created_at);
}

/** A watch's target is an address in canonical form, or a name (which never holds a colon). */
function isAddress(target: string): boolean {
  return target.includes(':') || /^\d{1,3}(\.\d{1,3}){3}$/.test(target);
}
