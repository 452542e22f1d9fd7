/**
 * The items given one AbortSignal, behind one abort listener per signal. A check asks dozens of
 * queries under one signal (src/reputation/lookups/deadline.ts); one listener each would be dozens of
 * registrations and removals per check, and Node warns past ten listeners on one target.
 */
export interface SignalWatches<T> {
  /** Calls the owner's abort handler for `item` when `signal` aborts, unless unwatched first. */
  watch(signal: AbortSignal, item: T): void;
  /** Forgets `item`; the signal's listener goes once it watches nothing. */
  unwatch(signal: AbortSignal, item: T): void;
}

class Watch<T> {
  readonly items = new Set<T>();

  constructor(
    readonly onAbort: (item: T) => void,
    readonly watches: Map<AbortSignal, Watch<T>>,
    readonly signal: AbortSignal,
  ) {}

  /** The abort listener (EventTarget calls `handleEvent` on a listener object). */
  handleEvent(): void {
    this.watches.delete(this.signal);
    for (const item of [...this.items]) this.onAbort(item);
    this.items.clear();
  }
}

export function createSignalWatches<T>(onAbort: (item: T) => void): SignalWatches<T> {
  const watches = new Map<AbortSignal, Watch<T>>();
  return {
    watch(signal, item) {
      let watch = watches.get(signal);
      if (!watch) {
        watch = new Watch(onAbort, watches, signal);
        watches.set(signal, watch);
        signal.addEventListener('abort', watch, { once: true });
      }
      watch.items.add(item);
    },
    unwatch(signal, item) {
      const watch = watches.get(signal);
      if (!watch || !watch.items.delete(item) || watch.items.size > 0) return;
      watches.delete(signal);
      signal.removeEventListener('abort', watch);
    },
  };
}
