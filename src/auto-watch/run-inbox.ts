import { base64url, type Digest, type Logger, utf8 } from '../lib/index.js';
import type { Store } from '../store/index.js';
import {
  readWatchTarget,
  type SourceFailingEvent,
  type Watches,
  type WatchFailure,
} from '../watch/index.js';
import type { Inbox, ReportStore, SourceTotals } from '../reports/index.js';
import { appliedOf, type Destinations, ownerOf, stopped, watchDestination } from './destination.js';
import {
  type Destination,
  keptMs,
  keys,
  readRecord,
  runStateSchema,
  writeRecord,
} from './records.js';
import { lastDays, selectSources, settingsOf } from './settings.js';

/**
 * One run of one inbox's auto-watch (docs/reports.md, "Reports meet watches"), by the one runner
 * that claimed it: the watches made, renewed, given the destination or removed so that exactly
 * the sources that qualify over the last 30 days are watched (within the cap, most messages
 * first), and each failing source not announced before announced once. Its work is bounded: what
 * is left is done by the next run, soon after.
 */

export interface RunDeps {
  store: Store;
  reports: ReportStore;
  watches: Pick<Watches, 'create' | 'update' | 'remove' | 'notify'>;
  destinations: Destinations;
  digest: Digest;
  clock: () => Date;
  log: Logger;
  /** REPORTS_AUTOWATCH_MAX. */
  cap: number;
  /** Watches made in one run (each runs a first check); the rest in the next run. */
  createsPerRun: number;
  /** Failing sources announced in one run. */
  announcesPerRun: number;
  /** How often a watch is renewed (its expiry moves WATCH_TTL_DAYS on). */
  renewEveryMs: number;
}

/** When the inbox runs again: a day on, sooner with work left; undefined: it leaves the queue. */
export type RunOutcome = { next: number } | { next: undefined };

const dayMs = 86_400_000;
/** Work left (watches to make, sources to announce): the next run comes this soon. */
export const moreWorkMs = 60_000;
/** The service cannot check now (no DNS, not configured): it tries again this much later. */
export const retryMs = 5 * 60_000;

export async function runInbox(deps: RunDeps, inboxId: string): Promise<RunOutcome> {
  const { store } = deps;
  const now = deps.clock().getTime();
  const inbox = await deps.reports.inbox(inboxId);
  const settings = inbox ? settingsOf(inbox) : null;
  const state = (await readRecord(store, keys.run(inboxId), runStateSchema)) ?? { watches: {} };
  let destination = await deps.destinations.read(inboxId);
  const owner = ownerOf(inboxId, deps.cap, destination);
  if (!inbox || !settings) {
    // Turned off or erased: every watch of the inbox goes; an erased inbox's records too.
    for (const watched of Object.values(state.watches))
      await deps.watches.remove(watched.id, owner);
    await store.delete(keys.run(inboxId));
    if (!inbox) await forgetInbox(store, inboxId);
    return { next: undefined };
  }
  if (!destination) {
    // Settings kept before PATCH gave the inbox a destination (an older version's): nothing is
    // watched or sent until a PATCH sets one, whose answer shows its webhook secret.
    deps.log('info', 'auto_watch has no destination: PATCH it again', { inbox: inboxId });
    return { next: now + dayMs };
  }
  const save = () => writeRecord(store, keys.run(inboxId), state);
  const sources = await deps.reports.sources(inboxId, lastDays(now));
  const selected = selectSources(sources, settings.min_messages, deps.cap, isWatchable);
  const wanted = new Set(selected.watch.map((source) => source.ip));

  for (const [ip, watched] of Object.entries(state.watches)) {
    if (wanted.has(ip)) continue;
    // The source stopped sending (or others passed it under the cap): its watch goes.
    await deps.watches.remove(watched.id, owner);
    delete state.watches[ip];
    await save();
  }

  const target = watchDestination(destination);
  const applied = await appliedOf(target, deps.digest);
  let addressStopped = false;
  for (const [ip, watched] of Object.entries(state.watches)) {
    const stale = watched.applied !== applied;
    if (!stale && now - watched.renewed_at < deps.renewEveryMs) continue;
    const outcome = await deps.watches.update(
      watched.id,
      stale ? { ...target, lang: inbox.lang } : {},
      owner,
    );
    if (!outcome.ok) {
      // Gone meanwhile (ended unrenewed while the service was down): made again below.
      if (outcome.error === 'not_found') delete state.watches[ip];
      else logFailure(deps.log, inboxId, ip, 'renew', outcome);
      await save();
      continue;
    }
    // A one-click unsubscribe on one of its watches stopped the address on all of them.
    if (target.email !== null && outcome.watch.email === null) addressStopped = true;
    state.watches[ip] = { id: watched.id, applied, renewed_at: now };
    await save();
  }
  if (addressStopped && destination.email) {
    destination = { ...destination, email: stopped(destination.email) };
    await deps.destinations.write(inboxId, destination);
    // The watches lose the address at the next run, which comes at once.
    return { next: now };
  }

  let next = now + dayMs;
  let creates = 0;
  for (const source of selected.watch) {
    if (state.watches[source.ip]) continue;
    if (creates === deps.createsPerRun) {
      next = Math.min(next, now + moreWorkMs);
      break;
    }
    creates++;
    const outcome = await deps.watches.create(
      { target: source.ip, kind: 'ip', lang: inbox.lang, origin: destination.origin, ...target },
      owner,
    );
    if (!outcome.ok) {
      logFailure(deps.log, inboxId, source.ip, 'create', outcome);
      // Past a cap (the inbox's or WATCH_MAX) or unable to check now: the next run tries again.
      next = Math.min(next, now + retryMs);
      break;
    }
    state.watches[source.ip] = { id: outcome.watch.id, applied, renewed_at: now };
    await save();
  }

  const announced = await announceFailing(deps, inbox, destination, selected.failing, {
    owner,
    min: settings.min_messages,
  });
  if (announced === 'more') next = Math.min(next, now + moreWorkMs);
  return { next };
}

/** An address an IP watch takes as it is: an IPv4 or IPv6 address, public. */
function isWatchable(ip: string): boolean {
  const read = readWatchTarget('ip', ip);
  return read.ok && read.target.kind !== 'domain' && read.text === ip;
}

/**
 * Each failing source the inbox has not announced: `reports.source_failing`, once per inbox and
 * address. The event's id is made from both, so a run that stops between the notice and the
 * record of it queues the same delivery again (its receiver drops a repeat by `webhook-id`).
 * Held while the inbox has nowhere to send it (an address not confirmed yet, or stopped).
 */
async function announceFailing(
  deps: RunDeps,
  inbox: Inbox,
  destination: Destination,
  failing: readonly SourceTotals[],
  { owner, min }: { owner: ReturnType<typeof ownerOf>; min: number },
): Promise<'done' | 'more'> {
  const { store } = deps;
  const email = destination.email;
  const mailable = email !== null && email.confirmed && !email.unsubscribed;
  if (!destination.webhook && !mailable) return 'done';
  const known = new Set(await store.members(keys.failing(inbox.id)));
  const fresh = failing.filter((source) => !known.has(source.ip));
  const now = deps.clock();
  const period = lastDays(now.getTime());
  for (const source of fresh.slice(0, deps.announcesPerRun)) {
    const event: SourceFailingEvent = {
      type: 'reports.source_failing',
      created_at: now.toISOString(),
      data: {
        inbox_id: inbox.id,
        domain: inbox.domain,
        source_ip: source.ip,
        messages: source.messages,
        pass: source.pass,
        fail: source.fail,
        min_messages: min,
        period,
        reporters: source.reporters,
        view_url: deps.destinations.viewUrl(destination, inbox),
      },
    };
    const sent = await deps.watches.notify(
      {
        id: await eventIdOf(deps.digest, inbox.id, source.ip),
        event,
        lang: inbox.lang,
        ...(destination.webhook
          ? { webhook: destination.webhook }
          : {
              email: {
                to: email!.address,
                unsubscribe_url: deps.destinations.unsubscribeUrl(
                  destination,
                  inbox.id,
                  email!.unsubscribe,
                ),
              },
            }),
      },
      owner,
    );
    if (!sent.ok) {
      logFailure(deps.log, inbox.id, source.ip, 'announce', sent);
      return 'done';
    }
    await store.addMembers(keys.failing(inbox.id), [source.ip], keptMs);
  }
  return fresh.length > deps.announcesPerRun ? 'more' : 'done';
}

/** `evt_` and 128 bits of SHA-256 over the inbox and the address: the same for both, always. */
async function eventIdOf(digest: Digest, inboxId: string, ip: string): Promise<string> {
  const hash = await digest(utf8.encode(`reports.source_failing ${inboxId} ${ip}`));
  return `evt_${base64url(hash.slice(0, 16))}`;
}

async function forgetInbox(store: Store, inboxId: string): Promise<void> {
  await store.removeMembers(keys.failing(inboxId), await store.members(keys.failing(inboxId)));
  for (const key of [keys.destination, keys.operator, keys.soon]) await store.delete(key(inboxId));
}

function logFailure(
  log: Logger,
  inboxId: string,
  ip: string,
  what: string,
  failure: WatchFailure,
): void {
  log('info', `auto_watch could not ${what}`, {
    inbox: inboxId,
    source: ip,
    error: failure.error,
    reason: failure.reason,
  });
}
