import { Webhook } from 'standardwebhooks';
import { startWebhookReceiver } from '../../fixtures/webhook-receiver.js';
import { benchAddress } from '../addresses.js';
import { type BenchDns, startBenchDns } from '../dns-fixture.js';
import { reversedOctets } from '../../src/lib/index.js';
import { type RunningService, startService, waitForCardThreads } from '../service.js';
import { cacheAllowanceMiB, rssWithinBoundsRow } from '../cache-bounds.js';
import { distribution, percentile, round } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * 11. Watches (docs/benchmarks.md#watches): 1,000 watches of addresses, each re-checked every
 * BENCH_WATCH_INTERVAL_S seconds (10 by default: 100 checks a second, 360 times what 1,000 watches
 * at the 3600 s default ask) by a fresh service process on its own SQLite file, each with a webhook
 * to a receiver on 127.0.0.1. A fixture DNS world of its own (a worker thread, no injected latency)
 * lists every address on one list at the start of each measured interval and delists it at the
 * next, so each re-check finds a change and queues a delivery. Measured over BENCH_WATCH_ROUNDS
 * intervals: the service's CPU per re-check (its deliveries and debug logging included), the lag
 * from a watch's due time to its check's start (the runner's `watch checked` lines), the deliveries
 * the receiver got a second (each one verified with the standardwebhooks package and the watch's
 * secret), and the service's RSS before the watches and after the rounds. One interval after the
 * creations is left unmeasured. The watches take the webhook formats in turn (a fifth each:
 * standard and the four chat formats, docs/watches.md#chat-formats), and the deliveries a second
 * are also counted per format.
 */

/** The lag target; the RSS bound is section 6's (docs/benchmarks.md#watches). */
const lagP99TargetMs = 1000;

const watchCount = 1000;
/** The list that comes and goes: a plain IP list answering RFC 5782 §2.1's 127.0.0.2. */
const flippingZone = 'bl.spamcop.net';

/** Watch `index` takes `formats[index % 5]`; its webhook path names the format and the watch. */
const formats = ['standard', 'slack', 'discord', 'telegram', 'ntfy'] as const;
const hookPath = (index: number) => `/hook/${formats[index % formats.length]}/${index}`;
const formatOfPath = (path: string) => path.split('/')[2] ?? '';

export async function measureWatches({
  settings,
  serviceLaunch,
  progress,
}: BenchContext): Promise<SectionResult> {
  const { watchIntervalS: intervalS, watchRounds: rounds } = settings;
  progress(`11. watches: ${watchCount} watches every ${intervalS} s, ${rounds} measured rounds`);
  const dns = await startBenchDns({
    addressCount: watchCount,
    ipv6AddressCount: 0,
    listings: {},
    latencyMs: 0,
  });
  const receiver = await startWebhookReceiver();
  const arrivals: number[] = [];
  const arrivalsByFormat = new Map<string, number>();
  receiver.answer((request) => {
    arrivals.push(performance.now());
    const format = formatOfPath(request.path);
    arrivalsByFormat.set(format, (arrivalsByFormat.get(format) ?? 0) + 1);
    return 204;
  });
  const lags: number[] = [];
  let measuring = false;
  let service: RunningService | undefined;
  try {
    service = await startService({
      dnsServer: dns.address,
      env: {
        ...serviceLaunch.env,
        LOG_LEVEL: 'debug',
        WATCH_MIN_INTERVAL_S: '1',
        WATCH_PER_CALLER: String(watchCount),
        WATCH_MAX: String(watchCount),
        WATCH_PER_NETWORK: String(watchCount),
        // The receiver listens on 127.0.0.1: the operator's watches may reach it.
        WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
        OPERATOR_TOKEN: operatorToken,
      },
      nodeFlags: serviceLaunch.nodeFlags,
      onLine(line) {
        if (!measuring || !line.includes('"watch checked"')) return;
        lags.push((JSON.parse(line) as { lag_ms: number }).lag_ms);
      },
    });
    // An address no watch has: once its card is drawn, the process is at its resting size.
    await waitForCardThreads(service, benchAddress(watchCount));
    const before = await service.memory();
    const limitMiB = round(before.rssMiB + (await cacheAllowanceMiB()));
    const secrets = await createWatches(service, receiver.url(''), intervalS);

    // One interval unmeasured and unchanged: the checks the creations pushed late catch up, so
    // the rounds measure the steady state.
    progress(`11. watches: ${watchCount} created; one interval to settle`);
    await new Promise((resolve) => setTimeout(resolve, intervalS * 1000));
    progress(`11. watches: ${rounds} rounds of flipping listings`);
    const cpuAtStart = await service.cpuMs();
    const startedAt = performance.now();
    const firstArrival = arrivals.length;
    const firstByFormat = new Map(arrivalsByFormat);
    measuring = true;
    for (let index = 0; index < rounds; index++) {
      await flipListings(dns, index % 2 === 0);
      const roundEnds = startedAt + (index + 1) * intervalS * 1000;
      await new Promise((resolve) => setTimeout(resolve, roundEnds - performance.now()));
    }
    measuring = false;
    const seconds = (performance.now() - startedAt) / 1000;
    const cpuMs = (await service.cpuMs()) - cpuAtStart;
    const after = await service.memory();
    const delivered = arrivals.length - firstArrival;
    const verified = verifiedDeliveries(receiver.received, secrets);

    const lag = { ...distribution(lags), p99: percentile(lags, 99) };
    const cpuPerCheck = round(cpuMs / lags.length);
    const deliveriesPerSecond = round(delivered / seconds);
    const perFormat = formats.map((format) => ({
      format,
      perSecond: round(
        ((arrivalsByFormat.get(format) ?? 0) - (firstByFormat.get(format) ?? 0)) / seconds,
      ),
    }));
    const slowest = Math.min(...perFormat.map((entry) => entry.perSecond));
    return {
      rows: [
        {
          section: 11,
          measurement: `service CPU per re-check, its delivery included (${lags.length} re-checks of ${watchCount} watches every ${intervalS} s)`,
          value: cpuPerCheck,
          unit: 'ms',
        },
        {
          section: 11,
          measurement: 'watch lag p50, due time to check (runner log)',
          value: lag.p50,
          unit: 'ms',
        },
        {
          section: 11,
          measurement: `watch lag p99 (p95 ${lag.p95} ms, max ${lag.max} ms)`,
          value: lag.p99,
          unit: 'ms',
          target: `≤ ${lagP99TargetMs} ms`,
          met: lag.p99 <= lagP99TargetMs,
        },
        {
          section: 11,
          measurement: `webhook deliveries a second (${delivered} in ${round(seconds)} s; ${verified.failed} failed verification)`,
          value: deliveriesPerSecond,
          unit: '/s',
          reference: { label: 're-checks', value: round(lags.length / seconds) },
          ratio: round(delivered / lags.length),
          target: 'every one verified',
          met: verified.failed === 0 && verified.ok > 0,
        },
        {
          section: 11,
          measurement: `deliveries a second per format, a fifth of the watches each (${perFormat.map((entry) => `${entry.format} ${entry.perSecond}`).join(', ')}; the slowest shown)`,
          value: slowest,
          unit: '/s',
          reference: {
            label: 'all formats / 5',
            value: round(deliveriesPerSecond / formats.length),
          },
          ratio: round(slowest / (deliveriesPerSecond / formats.length)),
        },
        rssWithinBoundsRow(
          11,
          `service RSS after the rounds (fresh process: ${before.rssMiB} MiB before the watches; high-water ${after.hwmMiB} MiB)`,
          after.rssMiB,
          limitMiB,
        ),
      ],
      details: {
        intervalS,
        rounds,
        seconds: round(seconds),
        checks: lags.length,
        lagMs: lag,
        cpuMs,
        deliveries: delivered,
        deliveriesPerSecondByFormat: Object.fromEntries(
          perFormat.map((entry) => [entry.format, entry.perSecond]),
        ),
        verified,
        memory: { before, after, limitMiB },
      },
    };
  } finally {
    await service?.stop();
    await receiver.close();
    await dns.close();
  }
}

/**
 * Creates the watches through HTTP, 25 at a time over about the first interval, so their due
 * times spread as real ones do; answers each watch's webhook secret by its webhook's path.
 */
/** OPERATOR_TOKEN of the measured service: its watches deliver to a receiver on 127.0.0.1. */
const operatorToken = 'operator-token-of-the-bench';

async function createWatches(
  service: RunningService,
  receiverBase: string,
  intervalS: number,
): Promise<Map<string, string>> {
  const secrets = new Map<string, string>();
  const batch = 25;
  for (let first = 0; first < watchCount; first += batch) {
    const pause = new Promise((resolve) =>
      setTimeout(resolve, (intervalS * 1000 * batch) / watchCount),
    );
    const created = await Promise.all(
      Array.from({ length: batch }, (_, offset) =>
        createWatch(service, benchAddress(first + offset), receiverBase, first + offset, intervalS),
      ),
    );
    for (const { path, webhook_secret } of created) secrets.set(path, webhook_secret);
    await pause;
  }
  return secrets;
}

/**
 * POST /watch/v1, asked again (up to 3 times) when the first check found no DNS answer: on a
 * loaded machine a few of 1,000 first checks outrun the DNS timeout, which is no part of what
 * this section measures.
 */
async function createWatch(
  service: RunningService,
  target: string,
  receiverBase: string,
  index: number,
  intervalS: number,
): Promise<{ path: string; webhook_secret: string }> {
  const path = hookPath(index);
  const webhookUrl = `${receiverBase}${path}`;
  const webhook_format = formatOfPath(path);
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${service.base}/watch/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken}` },
      // Each round flips the listings, so each re-check is a change only when reported at once:
      // confirmations 1 keeps one delivery per re-check (docs/watches.md, "Confirmed changes").
      body: JSON.stringify({
        target,
        interval_s: intervalS,
        webhook_url: webhookUrl,
        confirmations: 1,
        webhook_format,
      }),
    });
    const body = (await response.json()) as { webhook_secret: string; code?: string };
    if (response.status === 201) return { path, webhook_secret: body.webhook_secret };
    if (body.code !== 'dns_unavailable' || attempt === 3) {
      throw new Error(`POST /watch/v1 answered ${response.status}: ${JSON.stringify(body)}`);
    }
  }
}

/** Every watched address listed on the flipping list, or none of them. */
function flipListings(dns: BenchDns, listed: boolean): Promise<void> {
  const records = Object.fromEntries(
    Array.from({ length: listed ? watchCount : 0 }, (_, index) => [
      `${reversedOctets(benchAddress(index))}.${flippingZone}`,
      { A: ['127.0.0.2'] },
    ]),
  );
  return dns.override([{ zone: flippingZone, records }]);
}

/**
 * Checks each delivery's signature as a receiver would, with its watch's secret: an event with
 * the package's verifier; a chat message (signed too, over its bytes) by signing it again, since
 * the verifier parses the body as JSON and ntfy's is text.
 */
function verifiedDeliveries(
  received: readonly { path: string; headers: Record<string, string>; body: string }[],
  secrets: ReadonlyMap<string, string>,
): { ok: number; failed: number; types: Record<string, number> } {
  let ok = 0;
  let failed = 0;
  const types: Record<string, number> = {};
  for (const { path, headers, body } of received) {
    try {
      const signer = new Webhook(secrets.get(path) ?? '');
      const format = formatOfPath(path);
      if (format === 'standard') {
        const event = signer.verify(body, headers) as { type: string };
        types[event.type] = (types[event.type] ?? 0) + 1;
      } else {
        const at = new Date(Number(headers['webhook-timestamp']) * 1000);
        const expected = signer.sign(headers['webhook-id'] ?? '', at, body);
        if (headers['webhook-signature'] !== expected) throw new Error('bad signature');
        types[format] = (types[format] ?? 0) + 1;
      }
      ok++;
    } catch {
      failed++;
    }
  }
  return { ok, failed, types };
}
