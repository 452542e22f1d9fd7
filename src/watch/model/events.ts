import { type Change, noChange, type WatchStatus } from '../kinds/index.js';
import type { WatchConfig, WatchEvent, WatchEventType } from './schemas.js';

/**
 * The events a watch sends (docs/watches.md, "Events"): `watch.listed` when a check found any new
 * listing, `watch.delisted` when it found listings only removed, `watch.changed` when a mail
 * watch's mail setup changed ("Mail watches"), `watch.test` on request. The
 * links to the watch's page and badge are built by whoever serves them (the routes), passed in.
 */

export interface WatchLinks {
  page_url: string;
  badge_url: string;
}

/** A watch's links: from its id, under its stored creation origin when there is no PUBLIC_URL. */
export type LinksOf = (watch: { id: string; origin?: string | undefined }) => WatchLinks;

/** The type of the event a change sends: a mail watch's is `watch.changed`. */
export function changeEventType(
  change: Change,
): 'watch.listed' | 'watch.delisted' | 'watch.changed' {
  if ((change.changes?.length ?? 0) > 0) return 'watch.changed';
  return change.added.length > 0 ? 'watch.listed' : 'watch.delisted';
}

export function watchEvent(
  type: WatchEventType,
  watch: Pick<WatchConfig, 'id' | 'target' | 'kind'>,
  links: WatchLinks,
  status: Pick<WatchStatus, 'verdict' | 'score' | 'listed_on' | 'mail'>,
  at: Date,
  change: Change = noChange,
): WatchEvent {
  return {
    type,
    created_at: at.toISOString(),
    data: {
      watch: { id: watch.id, target: watch.target, kind: watch.kind, ...links },
      added: change.added,
      removed: change.removed,
      listed_on: status.listed_on,
      ...(change.changes ? { changes: change.changes } : {}),
      ...(status.mail ? { providers: status.mail.providers } : {}),
      verdict: status.verdict,
      score: status.score,
    },
  };
}
