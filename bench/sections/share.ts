import { cannon } from '../cannon.js';
import { distribution, round, timed } from '../stats.js';
import type { Settings } from '../settings.js';
import type { BenchWorld } from '../world.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * The section 1 results whose cards are measured: each listed address (its card carries a
 * listings panel) followed by two clean ones, so both kinds are measured at the same point of V8's
 * optimisation of the renderer instead of one kind after the other.
 */
export function measuredCardAddresses(
  { sets }: BenchWorld,
  { cardCleanSamples }: Settings,
): string[] {
  const clean = sets.latency.slice(-cardCleanSamples);
  const perListed = Math.ceil(clean.length / sets.latencyListed.length);
  return sets.latencyListed.flatMap((listed, index) => [
    listed,
    ...clean.slice(index * perListed, (index + 1) * perListed),
  ]);
}

/** 5. Share artefacts: cold card renders, cached cards, badges. */
export async function measureShareArtefacts({
  settings,
  world,
  service,
  http,
  checks,
  progress,
}: BenchContext): Promise<SectionResult> {
  const { cardSeconds, cardConnections, cardPipelining } = settings;
  const tokensOf = (addresses: string[]) =>
    addresses.map((address) => {
      const token = checks.tokens.get(address);
      if (!token) throw new Error(`no token for ${address} (the latency section did not run)`);
      return token;
    });
  const { cardWarmup } = world.sets;
  for (const address of cardWarmup) {
    if (!(await checks.check(address, world.listings[address] !== undefined))) {
      throw new Error(`the warm-up check of ${address} failed`);
    }
  }
  const [first, ...warmup] = tokensOf(cardWarmup);
  const cardTokens = tokensOf(measuredCardAddresses(world, settings));
  if (!first) throw new Error('no card to warm up with');
  progress(
    `5. share: ${1 + warmup.length} warm-up cards, ${cardTokens.length} cold cards, cached card ${cardSeconds} s, badges`,
  );
  const cardUrl = (token: string) => `${service.base}/ip/v1/share/${token}/card`;
  const drawn = async (token: string) =>
    timed(async () => assertOk(await http.get(cardUrl(token))));
  const firstMs = await drawn(first);
  const warmupTimes: number[] = [];
  for (const token of warmup) warmupTimes.push(await drawn(token));
  const warmupD = distribution(warmupTimes);
  const coldTimes: number[] = [];
  for (const token of cardTokens) coldTimes.push(await drawn(token));
  const coldD = distribution(coldTimes);
  const cachedCard = await cannon(service, {
    url: cardUrl(first),
    connections: cardConnections,
    pipelining: cardPipelining,
    duration: cardSeconds,
  });
  const badgeTimes: number[] = [];
  for (const token of [...cardTokens, ...cardTokens, ...cardTokens]) {
    badgeTimes.push(
      await timed(async () =>
        assertOk(await http.get(`${service.base}/ip/v1/share/${token}/badge.svg`)),
      ),
    );
  }
  const badgeD = distribution(badgeTimes);
  return {
    rows: [
      {
        section: 5,
        measurement: `card cold render p50 (HTTP, n=${coldD.n}; first card of the process ${round(firstMs)} ms, the next ${warmupD.n} p50 ${warmupD.p50} ms, p95 ${warmupD.p95} ms)`,
        value: coldD.p50,
        unit: 'ms',
        target: '≤ 60',
        met: coldD.p50 <= 60,
      },
      {
        section: 5,
        measurement: 'card cold render p95',
        value: coldD.p95,
        unit: 'ms',
        target: '≤ 60',
        met: coldD.p95 <= 60,
      },
      {
        section: 5,
        measurement: `cached card req/s (${cardConnections} conn., pipelining ${cardPipelining}, ${cardSeconds} s; service CPU ${cachedCard.serviceCpuUs} µs/req)`,
        value: cachedCard.rate,
        unit: '/s',
        ...(cachedCard.bad > 0 ? { note: `${cachedCard.bad} errors or non-2xx` } : {}),
      },
      {
        section: 5,
        measurement: `badge p50 (HTTP, n=${badgeD.n}; p95 ${badgeD.p95} ms)`,
        value: badgeD.p50,
        unit: 'ms',
      },
    ],
    details: {
      firstCardMs: round(firstMs),
      warmup: warmupD,
      cold: coldD,
      cachedCard,
      badge: badgeD,
    },
  };
}

function assertOk(answer: { status: number }): void {
  if (answer.status !== 200) throw new Error(`unexpected HTTP ${answer.status}`);
}
