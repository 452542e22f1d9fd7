import type { DnsStatus, RecordType } from '../../dns/index.js';

/**
 * How each list answered over the last hour: answers, timeouts and latency of the queries that
 * went on the wire (the resolver reports them from below its cache, so a cached answer neither
 * counts nor pulls the latency down). Twelve five-minute buckets per list, each a fixed latency
 * histogram, so memory stays the same whatever the traffic.
 */

export interface ListTraffic {
  answers: number;
  timeouts: number;
  /** Milliseconds, to the histogram's bin (2 ms under 100 ms, 20 ms under 1 s, 250 ms above). */
  p50: number | null;
  p95: number | null;
}

export interface ListStats {
  /** Every query the transport finished: name, type, outcome and time on the wire. */
  observe(name: string, type: RecordType, status: DnsStatus, ms: number): void;
  /** `observe` of an A query whose list is known already (`queriedZone` of its name). */
  observeList(zone: string, status: DnsStatus, ms: number): void;
  /** The last hour of one list, by its zone name. */
  traffic(zone: string): ListTraffic;
}

const bucketMs = 5 * 60_000;
const bucketCount = 12;

/** Upper edges of the latency bins, in ms. */
const binEdges: number[] = [
  ...Array.from({ length: 50 }, (_, index) => (index + 1) * 2),
  ...Array.from({ length: 45 }, (_, index) => 100 + (index + 1) * 20),
  ...Array.from({ length: 36 }, (_, index) => 1000 + (index + 1) * 250),
  Number.POSITIVE_INFINITY,
];

function binOf(ms: number): number {
  let low = 0;
  let high = binEdges.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ms <= binEdges[middle]!) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The name's last `count` labels (the whole name when it has fewer). */
function lastLabels(name: string, count: 1 | 2): string {
  const last = name.lastIndexOf('.');
  if (count === 1 || last === -1) return name.slice(last + 1);
  // lastIndexOf reads a negative start as 0: a name whose only dot leads is two labels already.
  return last === 0 ? name : name.slice(name.lastIndexOf('.', last - 1) + 1);
}

/**
 * The zone a query name falls under, from the map of each name a list is asked under to the zone
 * it reports as: the longest asked-under name that is a proper suffix of the query's, at a label
 * boundary. Every answer of a check passes here, so the names are grouped by their last two labels
 * (one label for a one-label name), longest first: a query is matched by two look-ups and a few
 * suffix comparisons, where a look-up per label would make 32 for an IPv6 address's name.
 */
export function queriedZone(
  zones: ReadonlyMap<string, string>,
): (name: string) => string | undefined {
  const byTail = new Map<string, [asked: string, zone: string][]>();
  for (const [asked, zone] of zones) {
    const tail = lastLabels(asked, 2);
    const group = byTail.get(tail) ?? [];
    group.push([asked, zone]);
    byTail.set(tail, group);
  }
  for (const group of byTail.values()) group.sort(([a], [b]) => b.length - a.length);
  const under = (name: string, group: [string, string][] | undefined) => {
    if (group === undefined) return undefined;
    for (const [asked, zone] of group) {
      const at = name.length - asked.length - 1;
      if (at >= 0 && name.charCodeAt(at) === 0x2e && name.endsWith(asked)) return zone;
    }
    return undefined;
  };
  return (name) => {
    const lower = name.toLowerCase();
    // Two-label names are longer than one-label ones, so they are tried first.
    return (
      under(lower, byTail.get(lastLabels(lower, 2))) ??
      under(lower, byTail.get(lastLabels(lower, 1)))
    );
  };
}

interface Bucket {
  start: number;
  answers: number;
  timeouts: number;
  latencies: Uint32Array;
}

/**
 * `zones` maps each name a list is asked under (its zone, or its Spamhaus DQS name) to the zone
 * it reports as.
 */
export function createListStats(
  zones: ReadonlyMap<string, string>,
  now: () => number = Date.now,
): ListStats {
  const buckets = new Map<string, Bucket[]>();
  for (const zone of new Set(zones.values())) buckets.set(zone, []);
  const zoneOf = queriedZone(zones);

  function currentBucket(zone: string, at: number): Bucket | undefined {
    const list = buckets.get(zone);
    if (!list) return undefined;
    const start = at - (at % bucketMs);
    let bucket = list[list.length - 1];
    if (bucket?.start !== start) {
      bucket = { start, answers: 0, timeouts: 0, latencies: new Uint32Array(binEdges.length) };
      list.push(bucket);
      if (list.length > bucketCount) list.shift();
    }
    return bucket;
  }

  function observeList(zone: string, status: DnsStatus, ms: number): void {
    const bucket = currentBucket(zone, now());
    if (!bucket) return;
    if (status === 'timeout') {
      bucket.timeouts++;
      return;
    }
    bucket.answers++;
    bucket.latencies[binOf(ms)]!++;
  }

  return {
    observe(name, type, status, ms) {
      // A lists' TXT reasons follow listings; the A query is the look-up itself.
      if (type !== 'A') return;
      const zone = zoneOf(name);
      if (zone !== undefined) observeList(zone, status, ms);
    },
    observeList,

    traffic(zone) {
      const since = now() - bucketCount * bucketMs;
      const recent = (buckets.get(zone) ?? []).filter((bucket) => bucket.start > since);
      const histogram = new Uint32Array(binEdges.length);
      let answers = 0;
      let timeouts = 0;
      for (const bucket of recent) {
        answers += bucket.answers;
        timeouts += bucket.timeouts;
        bucket.latencies.forEach((count, bin) => (histogram[bin]! += count));
      }
      return {
        answers,
        timeouts,
        p50: percentile(histogram, answers, 0.5),
        p95: percentile(histogram, answers, 0.95),
      };
    },
  };
}

function percentile(histogram: Uint32Array, count: number, share: number): number | null {
  if (count === 0) return null;
  const rank = Math.ceil(share * count);
  let seen = 0;
  for (let bin = 0; bin < histogram.length; bin++) {
    seen += histogram[bin]!;
    if (seen >= rank) {
      const edge = binEdges[bin]!;
      // The last bin has no upper edge: report its lower one.
      return Number.isFinite(edge) ? edge : binEdges[bin - 1]!;
    }
  }
  return null;
}
