import { prometheus } from '@hono/prometheus';
import type { MiddlewareHandler } from 'hono';
import { Counter, Gauge, Histogram, type Metric, Registry } from 'prom-client';
import type { ConnectionRefusal } from './connections.js';
import {
  type DeliveryQueueSample,
  type ListLookup,
  type ListStateSample,
  type Metrics,
  type SideLabel,
  watchBoundLabels,
} from '../operations/index.js';

/**
 * The metrics face of the core (src/operations/metrics.ts) in prom-client, one registry per
 * service, with @hono/prometheus counting and timing the HTTP requests and Node's default process
 * metrics beside them. What each metric means, and the alert rules and dashboard built on them:
 * docs/operations.md. Label values come from the code's own vocabularies and the zone list, never
 * from a request: no target, token, caller address or URL can reach them.
 */

export interface NodeMetrics {
  metrics: Metrics;
  /** Counts and times every request by method, route pattern and status. */
  httpMetrics: MiddlewareHandler;
  registry: Registry;
  /** Where the card threads' queue is read at each scrape (src/node/cards/card-pool.ts). */
  readCardQueue(read: () => number): void;
  /**
   * A connection was refused: `busy` past MAX_CONNECTIONS (answered 503 and closed), `per_client`
   * past MAX_CONNECTIONS_PER_CLIENT (closed at once).
   */
  connectionRefused(refusal: ConnectionRefusal): void;
}

/** Seconds: a DNS answer takes milliseconds to a few seconds (DNS_TIMEOUT_MS, 1.5 s by default). */
const dnsBuckets = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** A store operation takes tens of microseconds (SQLite) to a second (Redis's command timeout). */
const storeBuckets = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 0.5, 1, 5];
/** A card takes 40-60 ms to draw on a free thread; queued ones wait for those before them. */
const cardBuckets = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];
/** A due watch is checked within seconds of its due time, or falls behind by minutes. */
const lagBuckets = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900];

const listStates = ['active', 'on_hold', 'disabled'] as const;
const refusalReasons: readonly ConnectionRefusal[] = ['busy', 'per_client'];

export function createPrometheusMetrics(): NodeMetrics {
  const registry = new Registry();
  const registers = [registry];
  const { registerMetrics } = prometheus({ registry, collectDefaultMetrics: true });

  const checks = new Counter({
    name: 'reputation_checks_total',
    help: 'Check requests (POST of a tool) by tool and outcome: fresh, cached, or the error code answered.',
    labelNames: ['tool', 'outcome'],
    registers,
  });
  // Counted per answer of every list (36 a check): in plain maps, handed to prom-client at a scrape.
  const lookupCounts = new Map<string, Map<SideLabel, Map<ListLookup, number>>>();
  new Counter({
    name: 'reputation_dnsbl_lookups_total',
    help: "Each list's answer to each check: listed, clean, error, timeout, on_hold (not asked), disabled.",
    labelNames: ['list', 'side', 'outcome'],
    registers,
    collect() {
      this.reset();
      for (const [list, sides] of lookupCounts) {
        for (const [side, outcomes] of sides) {
          for (const [outcome, count] of outcomes) this.inc({ list, side, outcome }, count);
        }
      }
    },
  });
  const queryTimes = new ListQueryTimes(
    'reputation_dnsbl_query_duration_seconds',
    'Time to the answer of the queries to each list that got one on the wire (below the DNS cache, self-tests included).',
    dnsBuckets,
  );
  registry.registerMetric(queryTimes as unknown as Metric);
  let readLists: () => readonly ListStateSample[] = () => [];
  new Gauge({
    name: 'reputation_dnsbl_list_state',
    help: "1 for each side of each list's current state (active, on_hold, disabled), 0 for the others.",
    labelNames: ['list', 'side', 'state'],
    registers,
    // With WORKERS, each process proves the lists itself: a state held by any of them shows.
    aggregator: 'max',
    collect() {
      this.reset();
      for (const sample of readLists()) {
        for (const state of listStates)
          this.set({ list: sample.list, side: sample.side, state }, sample.state === state ? 1 : 0);
      }
    },
  });
  const storeDuration = new Histogram({
    name: 'reputation_store_operation_duration_seconds',
    help: 'Store operations by backend (memory, sqlite, redis) and operation, failed ones included.',
    labelNames: ['backend', 'operation'],
    buckets: storeBuckets,
    registers,
  });
  const storeErrors = new Counter({
    name: 'reputation_store_errors_total',
    help: 'Store operations that failed (Redis down, SQLite busy), by backend and operation.',
    labelNames: ['backend', 'operation'],
    registers,
  });
  const cardRenders = new Counter({
    name: 'reputation_card_renders_total',
    help: 'Cards the cache did not hold, by outcome: drawn, failed, busy (the queue was full: 503 busy).',
    labelNames: ['outcome'],
    registers,
  });
  const cardDuration = new Histogram({
    name: 'reputation_card_render_duration_seconds',
    help: 'Time to draw a card, its wait for a thread included.',
    buckets: cardBuckets,
    registers,
  });
  let readCardQueue: () => number = () => 0;
  new Gauge({
    name: 'reputation_card_queue_depth',
    help: 'Cards waiting for a free drawing thread.',
    registers,
    collect() {
      this.set(readCardQueue());
    },
  });
  const connectionsRefused = new Counter({
    name: 'reputation_connections_refused_total',
    help: 'Connections refused by reason: busy (past MAX_CONNECTIONS, answered 503 busy and closed), per_client (past MAX_CONNECTIONS_PER_CLIENT, closed at once).',
    labelNames: ['reason'],
    registers,
  });
  // Both reasons exported from the start, so a rate over them is 0 rather than absent.
  for (const reason of refusalReasons) connectionsRefused.inc({ reason }, 0);
  const watchLag = new Histogram({
    name: 'reputation_watch_due_lag_seconds',
    help: "How late each due watch's check started after its due time.",
    buckets: lagBuckets,
    registers,
  });
  const watchDeliveries = new Counter({
    name: 'reputation_watch_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, gone (410), failed, refused (a non-public address).',
    labelNames: ['outcome'],
    registers,
  });
  const watchEmails = new Counter({
    name: 'reputation_watch_emails_total',
    help: "Attempts at watches' e-mails by outcome: sent (the SMTP relay took it), failed.",
    labelNames: ['outcome'],
    registers,
  });
  // Both outcomes exported from the start, so a rate over them is 0 rather than absent.
  for (const outcome of ['sent', 'failed']) watchEmails.inc({ outcome }, 0);
  let readLiveWatches: () => number | Promise<number> = () => 0;
  new Gauge({
    name: 'reputation_watches_live',
    help: 'Watches not yet ended or deleted.',
    registers,
    // Read from the store every worker shares: each would report the same number.
    aggregator: 'max',
    async collect() {
      // A store that does not answer must not take the whole scrape down with it: the gauge
      // keeps its last value, and reputation_store_errors_total says why.
      try {
        this.set(await readLiveWatches());
      } catch {
        return;
      }
    },
  });

  const watchDrops = new Counter({
    name: 'reputation_watch_deliveries_dropped_total',
    help: 'Pending deliveries let go unsent by reason: cap (the oldest past WATCH_PENDING_DELIVERIES), paused (the webhook paused after failed events).',
    labelNames: ['reason'],
    registers,
  });
  for (const reason of ['cap', 'paused']) watchDrops.inc({ reason }, 0);
  const watchBounds = new Counter({
    name: 'reputation_watch_bounded_total',
    help: "Bounds watches met, by bound: confirming_checks (a confirming re-check put off to the regular check, confirmations - 1 being made), watch_alerts (an alert past its watch's 24 a day), mailbox_alerts (an e-mail alert past its mailbox's 50 a day).",
    labelNames: ['bound'],
    registers,
  });
  for (const bound of watchBoundLabels) watchBounds.inc({ bound }, 0);
  let readDeliveryQueue: () => Promise<DeliveryQueueSample> = () =>
    Promise.resolve({ pending: 0, oldestAgeSeconds: 0 });
  /** Each gauge reads the store; one that does not answer keeps the last value, as above. */
  const queueGauge = (name: string, help: string, pick: (sample: DeliveryQueueSample) => number) =>
    new Gauge({
      name,
      help,
      registers,
      // Read from the store every worker shares, as reputation_watches_live.
      aggregator: 'max',
      async collect() {
        try {
          this.set(pick(await readDeliveryQueue()));
        } catch {
          return;
        }
      },
    });
  queueGauge(
    'reputation_watch_deliveries_pending',
    'Webhook deliveries waiting in the store for their next attempt, of every watch.',
    (sample) => sample.pending,
  );
  queueGauge(
    'reputation_watch_oldest_delivery_age_seconds',
    'Seconds since the oldest pending webhook delivery was queued; 0 with none.',
    (sample) => sample.oldestAgeSeconds,
  );

  const metrics: Metrics = {
    checkAnswered: (tool, answer) => checks.inc({ tool, outcome: answer }),
    listLookup(list, side, lookup) {
      let sides = lookupCounts.get(list);
      if (!sides) lookupCounts.set(list, (sides = new Map()));
      let outcomes = sides.get(side);
      if (!outcomes) sides.set(side, (outcomes = new Map()));
      outcomes.set(lookup, (outcomes.get(lookup) ?? 0) + 1);
    },
    listQuery: (list, seconds) => queryTimes.observe(list, seconds),
    readListStates: (read) => {
      readLists = read;
    },
    storeOperation(backend, operation, seconds, failed) {
      storeDuration.observe({ backend, operation }, seconds);
      if (failed) storeErrors.inc({ backend, operation });
    },
    cardRender(render, seconds) {
      cardRenders.inc({ outcome: render });
      if (render === 'drawn') cardDuration.observe(seconds);
    },
    watchChecked: (lagSeconds) => watchLag.observe(lagSeconds),
    watchDelivery: (delivery) => watchDeliveries.inc({ outcome: delivery }),
    watchEmail: (outcome) => watchEmails.inc({ outcome }),
    readLiveWatches: (read) => {
      readLiveWatches = read;
    },
    watchDeliveryDropped: (reason) => watchDrops.inc({ reason }),
    watchBounded: (bound) => watchBounds.inc({ bound }),
    readDeliveryQueue: (read) => {
      readDeliveryQueue = read;
    },
  };
  return {
    metrics,
    httpMetrics: registerMetrics,
    registry,
    readCardQueue: (read) => {
      readCardQueue = read;
    },
    connectionRefused: (reason) => connectionsRefused.inc({ reason }),
  };
}

/** One list's observations: a count per bucket (the last one past every bound), their sum. */
interface ListTimes {
  counts: number[];
  sum: number;
}

/**
 * A histogram labelled by list, as prom-client's Histogram exposes it, observed without one:
 * prom-client's `observe` validates its labels and builds their key for every value, and this one
 * takes a value from every list's answer. prom-client's registry reads a metric by its `get()`
 * (as its own AggregatorRegistry registers the sums of a cluster's workers), so the counts stay in
 * plain arrays until a scrape reads them.
 */
class ListQueryTimes {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #lists = new Map<string, ListTimes>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  observe(list: string, seconds: number): void {
    let times = this.#lists.get(list);
    if (!times)
      this.#lists.set(list, (times = { counts: [...this.bounds, Infinity].map(() => 0), sum: 0 }));
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket++;
    times.counts[bucket] = (times.counts[bucket] ?? 0) + 1;
    times.sum += seconds;
  }

  get() {
    const values: { metricName: string; labels: Record<string, string | number>; value: number }[] =
      [];
    for (const [list, times] of this.#lists) {
      let cumulative = 0;
      this.bounds.forEach((le, index) => {
        cumulative += times.counts[index] ?? 0;
        values.push({ metricName: `${this.name}_bucket`, labels: { le, list }, value: cumulative });
      });
      const count = cumulative + (times.counts[this.bounds.length] ?? 0);
      values.push(
        { metricName: `${this.name}_bucket`, labels: { le: '+Inf', list }, value: count },
        { metricName: `${this.name}_sum`, labels: { list }, value: times.sum },
        { metricName: `${this.name}_count`, labels: { list }, value: count },
      );
    }
    const { name, help, type, aggregator } = this;
    return Promise.resolve({ name, help, type, aggregator, values });
  }

  reset(): void {
    this.#lists.clear();
  }
}
