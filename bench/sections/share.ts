import { cannon } from '../cannon.js';
import { distribution, round, timed } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';

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
  const { sets } = world;
  const cardTokens = [...sets.latencyListed, ...sets.latency.slice(-20)]
    .map((address) => checks.tokens.get(address))
    .filter((token): token is string => token !== undefined);
  const [first, ...cold] = cardTokens;
  if (!first) throw new Error('no tokens for cards (the latency section did not run)');
  progress(`5. share: ${cardTokens.length} cold cards, cached card ${cardSeconds} s, badges`);
  const cardUrl = (token: string) => `${service.base}/ip/v1/share/${token}/card`;
  const firstMs = await timed(async () => assertOk(await http.get(cardUrl(first))));
  const coldTimes: number[] = [];
  for (const token of cold) {
    coldTimes.push(await timed(async () => assertOk(await http.get(cardUrl(token)))));
  }
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
        measurement: `card cold render p50 (HTTP, n=${coldD.n}; first card ${round(firstMs)} ms)`,
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
    details: { firstCardMs: round(firstMs), cold: coldD, cachedCard, badge: badgeD },
  };
}

function assertOk(answer: { status: number }): void {
  if (answer.status !== 200) throw new Error(`unexpected HTTP ${answer.status}`);
}
