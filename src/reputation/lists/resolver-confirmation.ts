import type { TestEntryReading } from './self-test.js';

/**
 * The resolver confirmed beside a check: one proven list's documented test entry, asked past every
 * cache while the check runs, says whether the resolver still answers honestly. The zone monitor
 * and its replicas (monitor-replica.ts) confirm checks the same way.
 */

export type Confirmation = 'honest' | 'lying' | 'unknown';

/** A confirmation under way: `settle` waits for it at most `graceMs` more. */
export interface ResolverConfirmation {
  settle(graceMs: number): Promise<Confirmation>;
}

/** The confirmation of a check when no list may confirm it now. */
export const unconfirmed: ResolverConfirmation = { settle: () => Promise.resolve('unknown') };

/**
 * A check's confirmation from the reading of a documented test entry asked beside it: `onLie`
 * hears of a false answer as soon as it comes, whether or not the check still waits for it.
 */
export function confirmationOf(
  reading: Promise<TestEntryReading>,
  onLie: (reason: string) => void,
): ResolverConfirmation {
  const confirmation: Promise<Confirmation> = reading.then(
    (read) => {
      if (read.kind === 'as-documented') return 'honest';
      if (read.kind === 'no-answer') return 'unknown';
      onLie(read.reason);
      return 'lying';
    },
    () => 'unknown',
  );
  return {
    settle(graceMs) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<Confirmation>((resolve) => {
        timer = setTimeout(() => resolve('unknown'), graceMs);
      });
      return Promise.race([confirmation, late]).finally(() => clearTimeout(timer));
    },
  };
}
