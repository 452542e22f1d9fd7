import type { ErrorCode } from '../http/index.js';
import type { ListState } from '../reputation/index.js';
import type { Store } from '../store/index.js';

/**
 * What the core tells the metrics, in the domain's words and nothing else: no target, token,
 * caller address or URL ever reaches a label (docs/operations.md names every metric). The Node
 * server implements it with prom-client (src/node/prometheus.ts) and serves GET /metrics; Workers
 * keep `noMetrics`, as they serve no /metrics (docs/edge.md). prom-client runs on Node only, so
 * the core calls this face and never the library.
 */

/** How a check route answered: afresh, from the result cache, or the code of its error. */
export type CheckAnswer = 'fresh' | 'cached' | ErrorCode;

/** Which side of a list a figure is about: an ip list's IPv4 or IPv6 side, or a domain list. */
export type SideLabel = 'ipv4' | 'ipv6' | 'domain';

/** A list's answer to one check: its status in the result, `on_hold` when it was not asked. */
export type ListLookup =
  'listed' | 'allowlisted' | 'clean' | 'error' | 'timeout' | 'on_hold' | 'disabled';

/** One side of one list and its state now (GET /lists). */
export interface ListStateSample {
  list: string;
  side: SideLabel;
  state: ListState;
}

/** Every Store operation but `close` (src/store/store.ts). */
export type StoreOperation = Exclude<keyof Store, 'close'>;

/** How a card render ended: drawn, failed, or refused because the queue was full (503 `busy`). */
export type CardRender = 'drawn' | 'failed' | 'busy';

/** How one webhook delivery attempt of a watch ended (docs/operations.md, watches). */
export type WatchDelivery = 'delivered' | 'gone' | 'failed' | 'refused';

/** Why a pending delivery was let go unsent: its watch's cap, or its webhook's pause. */
export type WatchDeliveryDrop = 'cap' | 'paused';

/** The bounds of a watch's cadence and alerts, as src/watch/ names them. */
export const watchBoundLabels = ['confirming_checks', 'watch_alerts', 'mailbox_alerts'] as const;
export type WatchBoundLabel = (typeof watchBoundLabels)[number];

/** The pending deliveries of every watch, as the store holds them. */
export interface DeliveryQueueSample {
  pending: number;
  /** Seconds since the oldest pending delivery was queued; 0 with none. */
  oldestAgeSeconds: number;
}

export interface Metrics {
  /** A check route answered (a POST of a tool). */
  checkAnswered(tool: string, answer: CheckAnswer): void;
  /** What one list answered for one check. */
  listLookup(list: string, side: SideLabel, lookup: ListLookup): void;
  /** A query to a list that got an answer on the wire (below the cache), after `seconds`. */
  listQuery(list: string, seconds: number): void;
  /** Where the lists' states are read when the metrics are (each side of each list). */
  readListStates(read: () => readonly ListStateSample[]): void;
  /** One store operation on `backend` (`sqlite`, `redis`, ...), and whether it failed. */
  storeOperation(
    backend: string,
    operation: StoreOperation,
    seconds: number,
    failed: boolean,
  ): void;
  /** One card render (a cache miss), and how long it took to be drawn or refused. */
  cardRender(render: CardRender, seconds: number): void;
  /**
   * The watches' (src/watch/, wired in src/services.ts): how late a due watch's check started,
   * how each delivery attempt ended, and where the number of live watches is read.
   */
  watchChecked(lagSeconds: number): void;
  watchDelivery(delivery: WatchDelivery): void;
  /** One attempt at a watch's e-mail (docs/watches.md, "E-mail"): taken by the relay, or not. */
  watchEmail(outcome: 'sent' | 'failed'): void;
  readLiveWatches(read: () => number | Promise<number>): void;
  /** A pending delivery let go unsent, and where the delivery queue is read. */
  watchDeliveryDropped(reason: WatchDeliveryDrop): void;
  readDeliveryQueue(read: () => Promise<DeliveryQueueSample>): void;
  /**
   * A bound a watch met (docs/watches.md, "Confirmed changes"): a confirming re-check put off to
   * the regular check, an alert past its watch's or its mailbox's count of the day.
   */
  watchBounded(bound: WatchBoundLabel): void;
}

/** Metrics that go nowhere: Workers, and whatever runs the core without a scrape. */
export const noMetrics: Metrics = {
  checkAnswered: () => {},
  listLookup: () => {},
  listQuery: () => {},
  readListStates: () => {},
  storeOperation: () => {},
  cardRender: () => {},
  watchChecked: () => {},
  watchDelivery: () => {},
  watchEmail: () => {},
  readLiveWatches: () => {},
  watchDeliveryDropped: () => {},
  readDeliveryQueue: () => {},
  watchBounded: () => {},
};
