import type { Store } from '../../store/index.js';
import type { Hashing } from './opt-in.js';

/**
 * The day's allowances of confirmation messages (docs/watches.md, "E-mail"): each message takes
 * one unit of every bound at once (atomic per counter on every backend, so WORKERS=N and several
 * machines on one store share them), and a refusal gives back what it took. Counted per UTC day.
 */

/** Confirmation messages per watch, per mailbox and per caller, a UTC day. */
export const confirmationsPerDay = 3;
/** Confirmation messages from one network (an IPv4 /24, an IPv6 /48): four callers' worth. */
export const confirmationsPerNetworkPerDay = 4 * confirmationsPerDay;

/** What a bound counts: the watch whoever asks, the mailbox, the caller, its network, the service. */
export type ConfirmationBound = 'watch' | 'mailbox' | 'caller' | 'network' | 'service';

export interface ConfirmationSubjects {
  /** The watch the message is for: at most three a day, whoever asks. */
  watch: string;
  /** The address as given: counted as its mailbox (`mailboxOf`), under its hash. */
  address: string;
  /**
   * The owner's id (a caller's keyed id, or `<subsystem>:<id>`); none for the operator, whom no
   * caller's or network's bound binds.
   */
  caller?: string | undefined;
  /** The id of the caller's network; a subsystem and the operator have none. */
  network?: string | undefined;
}

/** The units a message took: given back if it is never sent. `until`: the end of their day. */
export interface TakenAllowance {
  keys: string[];
  until: number;
}

export type AllowanceOutcome =
  | { ok: true; taken: TakenAllowance }
  | { ok: false; bound: ConfirmationBound; retryAfterS: number };

const dayMs = 86_400_000;

/**
 * The mailbox an address reaches, for counting only (the message goes to the address as given):
 * lower case, a `+tag` sub-address folded into its mailbox (RFC 5233 §1), and the dots of the
 * local part dropped. **Decision**: dots are dropped for every domain, not only where a provider
 * ignores them (Gmail): `j.doe` and `jdoe` then share one allowance, which costs a real second
 * mailbox of that name little and takes the dot variants' multiplication away everywhere.
 */
export function mailboxOf(address: string): string {
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at).toLowerCase();
  const folded = local.split('+')[0]!.replace(/\./g, '');
  return `${folded === '' ? local : folded}@${address.slice(at + 1).toLowerCase()}`;
}

/**
 * Takes one unit of each bound for a confirmation message, in order (the watch, the mailbox, the
 * caller, its network, the service's `perDay`): the units taken, or the first bound that refused
 * with the seconds to the next UTC midnight (Retry-After), everything taken before it given back.
 * The mailbox is counted under its hash, so the counters hold no address.
 */
export async function takeConfirmationAllowance(
  store: Store,
  subjects: ConfirmationSubjects,
  hashing: Hashing,
  now: number,
  perDay: number,
): Promise<AllowanceOutcome> {
  const day = Math.floor(now / dayMs);
  const until = (day + 1) * dayMs;
  const key = (bound: string, id: string) => `email-confirmations:${bound}:${day}:${id}`;
  const bounds: [ConfirmationBound, string, number][] = [
    ['watch', key('watch', subjects.watch), confirmationsPerDay],
    [
      'mailbox',
      key('address', await hashing.hashOf(mailboxOf(subjects.address))),
      confirmationsPerDay,
    ],
    ...(subjects.caller === undefined
      ? []
      : [
          ['caller', key('caller', subjects.caller), confirmationsPerDay] satisfies [
            ConfirmationBound,
            string,
            number,
          ],
        ]),
    ...(subjects.network === undefined
      ? []
      : [
          ['network', key('network', subjects.network), confirmationsPerNetworkPerDay] satisfies [
            ConfirmationBound,
            string,
            number,
          ],
        ]),
    ['service', key('service', 'all'), perDay],
  ];
  // A minute past midnight, so a counter read at its last instant is still there.
  const ttlMs = until - now + 60_000;
  const taken: TakenAllowance = { keys: [], until };
  for (const [bound, counter, limit] of bounds) {
    if ((await store.incrementWithin(counter, limit, ttlMs)) === undefined) {
      await giveBackAllowance(store, taken, now);
      return { ok: false, bound, retryAfterS: Math.ceil((until - now) / 1000) };
    }
    taken.keys.push(counter);
  }
  return { ok: true, taken };
}

/** Gives the units back (a message refused by a later bound, or never sent), within their day. */
export async function giveBackAllowance(
  store: Store,
  taken: TakenAllowance,
  now: number,
): Promise<void> {
  if (now >= taken.until) return;
  for (const counter of taken.keys) await store.increment(counter, -1, taken.until - now + 60_000);
}

/**
 * Counts a message sent after its units were given back (a retry that got through): past the
 * bounds if need be, for it was sent; the next one asked for is refused then.
 */
export async function retakeAllowance(
  store: Store,
  taken: TakenAllowance,
  now: number,
): Promise<void> {
  if (now >= taken.until) return;
  for (const counter of taken.keys) await store.increment(counter, 1, taken.until - now + 60_000);
}
