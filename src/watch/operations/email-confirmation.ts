import { newEmail, takeConfirmationSend, type WatchEmail } from '../email/index.js';
import { enqueueDeliveries, newEventId } from '../model/index.js';
import type { OperationContext } from './context.js';
import { fail, type WatchFailure } from './errors.js';

/**
 * An address's confirmation (docs/watches.md, "E-mail"): double opt-in, within the day's limits
 * of the owner and of the address, sent as a delivery of its own.
 */

export interface Confirmation {
  email: WatchEmail;
  /** The code its message's link carries: only its hash is kept. */
  code: string;
}

/**
 * A confirmation for `address`, within the day's limits of the owner (its id; undefined for the
 * operator, whom no caller's limit binds) and the address: the e-mail to keep, with its code for
 * the message, or `email_limit`.
 */
export async function confirmationFor(
  context: OperationContext,
  address: string,
  owner: string | undefined,
  unsubscribe?: string,
): Promise<Confirmation | WatchFailure> {
  const { store, hashing, now } = context;
  const subjects = owner === undefined ? { address } : { caller: owner, address };
  const wait = await takeConfirmationSend(store, subjects, hashing, now());
  if (wait !== undefined) {
    const limit =
      owner === undefined
        ? 'at most 3 confirmation messages a day go to one address'
        : 'at most 3 confirmation messages a day go to one address, and from one caller';
    return {
      ...fail(
        'email_limit',
        `${limit}: the count starts again at 00:00 UTC, in ${spokenWait(wait)}`,
      ),
      retryAfterS: wait,
    };
  }
  return newEmail(address, context.randomBytes, hashing, now(), unsubscribe);
}

/** The confirmation message, queued as a delivery: retried as any, sent once its turn comes. */
export async function queueConfirmation(
  context: OperationContext,
  id: string,
  { email, code }: Confirmation,
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
    },
  };
  await enqueueDeliveries(context.store, context.records, [delivery], at, context.queueRules);
  context.wake();
}

/** `5 h 12 min`, `12 min`, `40 s`: the wait until the day's count starts again, as people say it. */
export function spokenWait(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${minutes} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
