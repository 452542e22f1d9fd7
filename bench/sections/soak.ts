import { cacheAllowanceMiB, cacheBounds, rssWithinBoundsRow } from '../cache-bounds.js';
import { createHttpClient, type HttpAnswer } from '../http.js';
import type { Row } from '../report.js';
import { type RunningService, startService, waitForCardThreads } from '../service.js';
import type { Settings } from '../settings.js';
import { distribution, percentile, round, runPool } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * 8. Soak (docs/benchmarks.md): one fresh service process, first flooded with maximum-size results
 * (domains whose SPF record is as large as DNS carries), then `BENCH_SOAK_S` seconds of mixed
 * traffic at fixed rates: fresh and cached checks of all three tools, cards, badges, pages,
 * statuses, results by token and the hostile domains of docs/checks.md. Reports every answer that
 * is not the expected one (only the hostile domains may answer a 4xx), the p99 of each route, and
 * the RSS over time against the configured bounds (the same as section 6's).
 */

type Kind = keyof Settings['soakRates'];
type Tool = 'ip' | 'domain' | 'pool';

interface Outcome {
  route: string;
  ms: number;
  /** HTTP status, 0 when the request failed on the wire. */
  status: number;
  expected: boolean;
}

const toolOf = (index: number): Tool => (['ip', 'domain', 'pool'] as const)[index % 3]!;
const pick = <T>(items: readonly T[]): T | undefined =>
  items.length === 0 ? undefined : items[Math.floor(Math.random() * items.length)];
const body = (answer: HttpAnswer) => JSON.parse(answer.body.toString()) as Record<string, unknown>;

export async function measureSoak({
  settings,
  world,
  dns,
  service,
  serviceLaunch,
  progress,
}: BenchContext): Promise<SectionResult> {
  const { soakSeconds, soakMaxInFlight, soakRssEveryS } = settings;
  const { soak } = world;
  progress(
    `8. soak: a fresh service, ${soak.giant.length} maximum-size results, then ${soakSeconds} s of mixed traffic`,
  );
  await service.stop();
  await dns.setLatency(0);
  const fresh = await startService({
    dnsServer: dns.address,
    env: serviceLaunch.env,
    nodeFlags: serviceLaunch.nodeFlags,
  });
  const client = createHttpClient(soakMaxInFlight);
  const bounds = await cacheBounds();
  const allowanceMiB = await cacheAllowanceMiB();
  try {
    // Once the card threads have drawn their warm-up card, the process is at its resting size.
    await waitForCardThreads(fresh, soak.addresses.pop() ?? '');
    const atStart = await fresh.memory();
    const limitMiB = round(atStart.rssMiB + allowanceMiB);

    const giantStatuses: Record<number, number> = {};
    // Two at a time: the fixture DNS server encodes each 60 KB answer slowly, on one thread.
    const giantRun = await runPool(soak.giant, 2, 180_000, async (domain) => {
      const answer = await client.postJson(`${fresh.base}/domain/v1`, { domain });
      giantStatuses[answer.status] = (giantStatuses[answer.status] ?? 0) + 1;
      return answer.status === 200;
    });
    const afterGiant = await fresh.memory();
    progress(
      `8. soak: ${giantRun.done} maximum-size results stored, RSS ${afterGiant.rssMiB} MiB; mixed traffic for ${soakSeconds} s`,
    );

    const traffic = await mixedTraffic(fresh, client, settings, soak);
    const afterSoak = await fresh.memory();
    const maxRss = Math.max(...traffic.rss.map((sample) => sample.rssMiB), afterSoak.rssMiB);

    const routes = [...new Set(traffic.outcomes.map((outcome) => outcome.route))].sort();
    const unexpected = traffic.outcomes.filter((outcome) => !outcome.expected);
    const hostile4xx = traffic.outcomes.filter(
      (outcome) => outcome.route.includes('hostile') && outcome.status >= 400 && outcome.expected,
    ).length;
    const byRoute = Object.fromEntries(
      routes.map((route) => {
        const of = traffic.outcomes.filter((outcome) => outcome.route === route);
        const statuses: Record<number, number> = {};
        for (const outcome of of) statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
        const times = of.map((outcome) => outcome.ms);
        return [route, { ...distribution(times), p99: round(percentile(times, 99)), statuses }];
      }),
    );
    const rssEvery = Math.max(1, Math.round(traffic.rss.length / 8));
    const rssSeries = traffic.rss
      .filter((_, index) => index % rssEvery === 0)
      .map((sample) => `${Math.round(sample.rssMiB)}`)
      .join(', ');
    const total = traffic.outcomes.length;
    const rows: Row[] = [
      rssWithinBoundsRow(
        8,
        `RSS after ${giantRun.done + giantRun.failed} maximum-size results (60 KB SPF records; answers ${JSON.stringify(giantStatuses)}; fresh process: ${atStart.rssMiB} MiB)`,
        afterGiant.rssMiB,
        limitMiB,
      ),
      {
        section: 8,
        measurement: `soak: unexpected answers in ${soakSeconds} s of mixed traffic (${total} requests, ${round(total / soakSeconds)}/s; ${hostile4xx} expected 4xx from hostile domains; ${traffic.shed} not sent, ${soakMaxInFlight} in flight)`,
        value: unexpected.length,
        unit: '',
        target: '0',
        met: unexpected.length === 0,
        ...(unexpected.length > 0
          ? { note: `unexpected: ${JSON.stringify(countBy(unexpected))}` }
          : {}),
      },
      rssWithinBoundsRow(
        8,
        `soak: highest RSS (every ${Math.round((soakRssEveryS * rssEvery * 10) / 10)} s, MiB: ${rssSeries}; at the end ${afterSoak.rssMiB})`,
        maxRss,
        limitMiB,
      ),
      ...routes.map((route): Row => ({
        section: 8,
        measurement: `soak p99 ${route} (n=${byRoute[route]!.n}, p50 ${byRoute[route]!.p50} ms)`,
        value: byRoute[route]!.p99,
        unit: 'ms',
      })),
    ];
    return {
      rows,
      details: {
        atStart,
        limitMiB,
        bounds,
        giant: { run: giantRun, statuses: giantStatuses, afterGiant },
        rss: traffic.rss,
        afterSoak,
        shed: traffic.shed,
        byRoute,
        unexpected: countBy(unexpected),
      },
    };
  } finally {
    client.close();
    await fresh.stop();
  }
}

function countBy(outcomes: readonly Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { route, status } of outcomes) {
    const key = `${route} ${status}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

async function mixedTraffic(
  service: RunningService,
  client: ReturnType<typeof createHttpClient>,
  settings: Settings,
  soak: BenchContext['world']['soak'],
) {
  const { soakSeconds, soakRates, soakMaxInFlight, soakRssEveryS } = settings;
  const base = service.base;
  const outcomes: Outcome[] = [];
  const tokens: Record<Tool, string[]> = { ip: [], domain: [], pool: [] };
  const checked = { ip: [] as string[], domain: [] as string[] };
  const discovered: Array<{ pool: string; ips: string[] }> = [];
  const fresh = { ip: 0, domain: 0, pool: 0 };

  async function timedRequest(
    route: string,
    send: () => Promise<HttpAnswer>,
    expected: readonly number[] = [200],
  ): Promise<HttpAnswer | undefined> {
    const started = performance.now();
    try {
      const answer = await send();
      outcomes.push({
        route,
        ms: performance.now() - started,
        status: answer.status,
        expected: expected.includes(answer.status),
      });
      return answer;
    } catch {
      outcomes.push({ route, ms: performance.now() - started, status: 0, expected: false });
      return undefined;
    }
  }
  const post = (path: string, payload: object) => () => client.postJson(`${base}${path}`, payload);
  const get = (path: string) => () => client.get(`${base}${path}`);
  const tokenOf = (answer: HttpAnswer | undefined) =>
    answer?.status === 200 ? String(body(answer).token) : undefined;
  /**
   * A token of any tool, with its tool: three times in four one of the tool's first 20 results (a
   * shared link is fetched again and again, by people and by preview bots), else any of them.
   */
  function anyToken(): [Tool, string] | undefined {
    const tool = toolOf(Math.floor(Math.random() * 3));
    const made = tokens[tool].length > 0 ? tokens[tool] : tokens.ip;
    const token = pick(Math.random() < 0.75 ? made.slice(0, 20) : made);
    return token === undefined ? undefined : [made === tokens[tool] ? tool : 'ip', token];
  }

  const kinds: Record<Kind, () => Promise<unknown> | undefined> = {
    ipFresh() {
      const target = soak.addresses[fresh.ip++];
      if (target === undefined) return undefined;
      return timedRequest('POST ip (fresh)', post('/ip/v1', { target })).then((answer) => {
        const token = tokenOf(answer);
        if (!token) return;
        tokens.ip.push(token);
        checked.ip.push(target);
      });
    },
    ipCached() {
      const target = pick(checked.ip);
      return target === undefined
        ? undefined
        : timedRequest('POST ip (cached)', post('/ip/v1', { target }));
    },
    domainFresh() {
      const domain = soak.domains[fresh.domain++];
      if (domain === undefined) return undefined;
      return timedRequest('POST domain (fresh)', post('/domain/v1', { domain })).then((answer) => {
        const token = tokenOf(answer);
        if (!token) return;
        tokens.domain.push(token);
        checked.domain.push(domain);
      });
    },
    domainCached() {
      const domain = pick(checked.domain);
      return domain === undefined
        ? undefined
        : timedRequest('POST domain (cached)', post('/domain/v1', { domain }));
    },
    poolDiscover() {
      const pool = soak.pools[fresh.pool++];
      if (pool === undefined) return undefined;
      return timedRequest('POST pool/discover', post('/pool/v1/discover', { pool })).then(
        (answer) => {
          const token = tokenOf(answer);
          if (!answer || !token) return;
          tokens.pool.push(token);
          discovered.push({ pool, ips: (body(answer).ips as string[]).slice(0, 2) });
        },
      );
    },
    poolCheck() {
      const found = pick(discovered);
      return (
        found &&
        timedRequest('POST pool/check', post('/pool/v1/check', found)).then((answer) => {
          const token = tokenOf(answer);
          if (token) tokens.pool.push(token);
        })
      );
    },
    card() {
      const at = anyToken();
      return at && timedRequest('GET card', get(`/${at[0]}/v1/share/${at[1]}/card`));
    },
    badge() {
      const at = anyToken();
      return at && timedRequest('GET badge', get(`/${at[0]}/v1/share/${at[1]}/badge.svg`));
    },
    page() {
      const at = anyToken();
      return at && timedRequest('GET share page', get(`/${at[0]}/v1/share/${at[1]}`));
    },
    status() {
      return timedRequest('GET status', get(`/${toolOf(outcomes.length)}/v1/status`));
    },
    token() {
      const at = anyToken();
      return at && timedRequest('GET by token', get(`/${at[0]}/v1/${at[1]}`));
    },
    hostile() {
      const domain = pick(soak.hostile)!;
      // Refused as internal (400) or answered within the check's deadline and budget (200).
      return timedRequest('POST domain (hostile)', post('/domain/v1', { domain }), [200, 400]);
    },
  };

  const rss: Array<{ s: number; rssMiB: number }> = [];
  const started = performance.now();
  const sampler = setInterval(() => {
    void service.memory().then(({ rssMiB }) => {
      rss.push({ s: round((performance.now() - started) / 1000), rssMiB });
    });
  }, soakRssEveryS * 1000);
  const credit = Object.fromEntries(Object.keys(soakRates).map((kind) => [kind, 0])) as Record<
    Kind,
    number
  >;
  const inFlight = new Set<Promise<unknown>>();
  let shed = 0;
  let last = started;
  try {
    // Open loop: each kind at its own rate, whatever the answers' speed, up to soakMaxInFlight.
    while (performance.now() - started < soakSeconds * 1000) {
      const now = performance.now();
      for (const kind of Object.keys(soakRates) as Kind[]) {
        credit[kind] += (soakRates[kind] * (now - last)) / 1000;
        for (; credit[kind] >= 1; credit[kind]--) {
          if (inFlight.size >= soakMaxInFlight) {
            shed++;
            continue;
          }
          const request = kinds[kind]();
          if (!request) continue;
          const tracked = Promise.resolve(request).finally(() => inFlight.delete(tracked));
          inFlight.add(tracked);
        }
      }
      last = now;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(inFlight);
  } finally {
    clearInterval(sampler);
  }
  return { outcomes, rss, shed };
}
