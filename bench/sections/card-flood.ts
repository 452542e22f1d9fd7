import { createHttpClient } from '../http.js';
import { distribution, percentile, round, runPool } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * 7. Card flood (docs/http-hardening.md#cards-off-the-event-loop): distinct cards, every one a cold
 * render, fetched `cardFloodConcurrency` at a time while another connection reads GET /ip/v1/status
 * in turn. Cards are drawn in worker threads, so the status reads stay as quick as on a quiet
 * service: p99 under 20 ms. The quiet figures, measured just before on the same connection, are
 * shown beside it; they are no bound (a p99 of 200 reads moves with the machine's noise), so the
 * row has no reference.
 */
export async function measureCardFlood({
  settings,
  world,
  dns,
  service,
  http,
  checks,
  progress,
}: BenchContext): Promise<SectionResult> {
  const { cardFloodConcurrency } = settings;
  const addresses = world.sets.cardFlood;
  progress(
    `7. card flood: ${addresses.length} results, then their cards ${cardFloodConcurrency} at a time beside status reads`,
  );
  await dns.setLatency(0);
  const made = await checks.checkAll(addresses, 60_000);
  const tokens = addresses.flatMap((address) => checks.tokens.get(address) ?? []);
  const statusClient = createHttpClient(1);
  const statusUrl = `${service.base}/ip/v1/status`;
  async function readStatus(): Promise<{ ms: number; ok: boolean }> {
    const started = performance.now();
    const answer = await statusClient.get(statusUrl);
    return { ms: performance.now() - started, ok: answer.status === 200 };
  }
  try {
    const quiet: number[] = [];
    for (let index = 0; index < 200; index++) quiet.push((await readStatus()).ms);

    let flooding = true;
    let busy = 0;
    const cardStarted = performance.now();
    const flood = runPool(tokens, cardFloodConcurrency, 120_000, async (token) => {
      const answer = await http.get(`${service.base}/ip/v1/share/${token}/card`);
      if (answer.status === 503) busy++;
      return answer.status === 200 && answer.body.length > 1000;
    }).finally(() => {
      flooding = false;
    });
    const during: number[] = [];
    let statusFailed = 0;
    while (flooding) {
      const { ms, ok } = await readStatus();
      during.push(ms);
      if (!ok) statusFailed++;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const cards = await flood;
    const cardSeconds = (performance.now() - cardStarted) / 1000;
    const quietD = distribution(quiet);
    const quietP99 = round(percentile(quiet, 99), 2);
    const duringD = distribution(during);
    const p99 = round(percentile(during, 99), 2);
    const failed = cards.failed - busy;
    return {
      rows: [
        {
          section: 7,
          measurement: `GET status p99 during a flood of ${cards.done + cards.failed} distinct cards, ${cardFloodConcurrency} at a time (n=${duringD.n}, p50 ${duringD.p50} ms; quiet just before: p50 ${quietD.p50} ms, p99 ${quietP99} ms; ${round(cards.done / cardSeconds)} cards/s, ${busy} answered 503 busy)`,
          value: p99,
          unit: 'ms',
          target: '< 20',
          met: p99 < 20 && statusFailed === 0 && failed === 0 && made.failed === 0,
          ...(failed + statusFailed + made.failed > 0
            ? {
                note: `${failed} cards, ${statusFailed} status reads and ${made.failed} checks failed`,
              }
            : {}),
        },
      ],
      details: {
        quiet: distribution(quiet),
        during: duringD,
        cards,
        busy,
        statusFailed,
        checks: made,
      },
    };
  } finally {
    statusClient.close();
  }
}
