import {
  type ConfirmationBound,
  confirmationsPerDay,
  confirmationsPerNetworkPerDay,
  newEmail,
  takeConfirmationAllowance,
  type TakenAllowance,
  type WatchEmail,
} from '../email/index.js';
import { enqueueDeliveries, newEventId } from '../model/index.js';
import type { OperationContext } from './context.js';
import { fail, type WatchFailure } from './errors.js';
import { emailAddressOf } from './fields.js';

/**
 * An address's confirmation (docs/watches.md, "E-mail"): double opt-in, within the day's
 * allowances, sent as a delivery of its own.
 */

export interface Confirmation {
  email: WatchEmail;
  /** The code its message's link carries: only its hash is kept. */
  code: string;
  /** The units of the day's allowances it took: given back if it is never sent. */
  allowance: TakenAllowance;
}

/** Who asks for a confirmation, and for which watch. */
export interface ConfirmationAsker {
  watch: string;
  /**
   * The owner's id (a caller's keyed id, or a subsystem's `<subsystem>:<id>`); none for the
   * operator (OPERATOR_TOKEN), whom no caller's or network's allowance binds.
   */
  caller?: string | undefined;
  /** The id of the caller's network; a subsystem and the operator have none. */
  network?: string | undefined;
}

/** What each bound allows, in the words of its refusal. */
const boundWords: Record<ConfirmationBound, (perDay: number) => string> = {
  watch: () => `at most ${confirmationsPerDay} confirmation messages a day go out for one watch`,
  mailbox: () =>
    `at most ${confirmationsPerDay} confirmation messages a day go to one mailbox (its +tag and dot variants are one)`,
  caller: () => `at most ${confirmationsPerDay} confirmation messages a day go out for one caller`,
  network: () =>
    `at most ${confirmationsPerNetworkPerDay} confirmation messages a day go out for one network (an IPv4 /24, an IPv6 /48)`,
  service: (perDay) =>
    `this service sends at most ${perDay} confirmation messages a day (EMAIL_CONFIRMATIONS_PER_DAY)`,
};

/**
 * A confirmation for `address`, within the day's allowances of the watch, the mailbox, the asker
 * and its network, and the service: the e-mail to keep, with its code for the message, or
 * `email_limit` with the seconds to the next UTC midnight.
 */
export async function confirmationFor(
  context: OperationContext,
  address: string,
  asker: ConfirmationAsker,
  unsubscribe?: string,
): Promise<Confirmation | WatchFailure> {
  const { store, hashing, now } = context;
  const perDay = context.limits.emailConfirmationsPerDay;
  const taken = await takeConfirmationAllowance(
    store,
    { ...asker, address },
    hashing,
    now(),
    perDay,
  );
  if (!taken.ok) {
    return {
      ...fail('email_limit', `${boundWords[taken.bound](perDay)}; try again after 00:00 UTC`),
      retryAfterS: taken.retryAfterS,
    };
  }
  const made = await newEmail(address, context.randomBytes, hashing, now(), unsubscribe);
  return { ...made, allowance: taken.taken };
}

/** The confirmation message, queued as a delivery: retried as any, sent once its turn comes. */
export async function queueConfirmation(
  context: OperationContext,
  id: string,
  { email, code, allowance }: Confirmation,
): Promise<void> {
  const at = context.now();
  const delivery = {
    id: newEventId(context.randomBytes),
    watch_id: id,
    body: '',
    attempts: 0,
    queued_at: at,
    email: {
      to: email.address,
      kind: 'confirm' as const,
      code,
      ...(email.code_expires_at ? { expires_at: email.code_expires_at } : {}),
      allowance,
    },
  };
  await enqueueDeliveries(context.store, context.records, [delivery], at, context.queueRules);
  context.wake();
}

/**
 * An address's double opt-in for a subsystem's own user (a reports inbox's `auto_watch`), within
 * the same day's limits as a watch's, counted under the subsystem's owner: the e-mail to keep,
 * with the code its confirmation's link carries. The subsystem sends it as a notice and judges
 * the link's code itself; the watches it keeps for that user then take the address confirmed.
 */
export async function confirmAddress(
  context: OperationContext,
  address: string,
  owner: { subsystem: string; id: string },
  unsubscribe?: string,
): Promise<Confirmation | WatchFailure> {
  const parsed = emailAddressOf(context, address);
  if (typeof parsed === 'object') return parsed;
  // The owner is both the asker and the one "watch" its confirmations are counted for.
  const asker = `${owner.subsystem}:${owner.id}`;
  return confirmationFor(context, parsed, { watch: asker, caller: asker }, unsubscribe);
}
