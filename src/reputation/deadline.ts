/**
 * One deadline shared by every query of a check, so one slow list never holds the response: work
 * still running when it passes is given up and reported as a timeout (never as clean).
 */
export interface Deadline {
  /** Resolves to `work`'s value, or to `onTimeout` once the deadline has passed. */
  race<T, F>(work: Promise<T>, onTimeout: F): Promise<T | F>;
  readonly expired: boolean;
  /** Releases the timer once the check is done. */
  clear(): void;
}

export function createDeadline(ms: number): Deadline {
  let expired = false;
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      expired = true;
      resolve();
    }, ms);
  });
  return {
    race: (work, onTimeout) => Promise.race([work, passed.then(() => onTimeout)]),
    get expired() {
      return expired;
    },
    clear: () => clearTimeout(timer),
  };
}
