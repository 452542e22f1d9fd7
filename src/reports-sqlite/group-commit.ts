/**
 * Group commit: the writes that come while one is scheduled go together in one transaction, one
 * commit for all of them. Each is answered only once its own data is committed. When the group's
 * transaction fails, each write goes again in a transaction of its own, so one write's failure
 * (its inbox gone, a refused row) is its own and never takes another's data with it.
 */
export function groupCommit<T, R>(
  schedule: (write: () => void) => void,
  writeTogether: (items: readonly T[]) => R[],
): { write: (item: T) => Promise<R>; flush: () => void } {
  type Waiting = { item: T; resolve: (answer: R) => void; reject: (error: unknown) => void };
  let waiting: Waiting[] = [];

  function writeWaiting(): void {
    const group = waiting;
    if (group.length === 0) return;
    waiting = [];
    try {
      const answers = writeTogether(group.map((each) => each.item));
      group.forEach((each, index) => each.resolve(answers[index]!));
      return;
    } catch (error) {
      if (group.length === 1) return group[0]!.reject(error);
    }
    for (const each of group) {
      try {
        each.resolve(writeTogether([each.item])[0]!);
      } catch (error) {
        each.reject(error);
      }
    }
  }

  return {
    write: (item) =>
      new Promise<R>((resolve, reject) => {
        if (waiting.push({ item, resolve, reject }) === 1) schedule(writeWaiting);
      }),
    /** Writes what waits now (a store closing keeps what it was given before it goes). */
    flush: () => {
      if (waiting.length > 0) writeWaiting();
    },
  };
}
