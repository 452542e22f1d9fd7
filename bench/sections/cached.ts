import { answerOf, startBareHttp } from '../bare-http.js';
import { type CannonRun, cannon } from '../cannon.js';
import type { Row } from '../report.js';
import { ratioOf } from '../report.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * 4. Cached path: the same POST again (result cache) and GET by token, each beside its ceiling: a
 * bare node:http server answering the same request with the same bytes, loaded the same way just
 * before, so the ratio says how much of this machine's limit the framework and the service leave.
 */
export async function measureCachedPaths({
  settings,
  world,
  service,
  checks,
  progress,
}: BenchContext): Promise<SectionResult> {
  const { cachedSeconds, cachedConnections, cachedPipelining } = settings;
  const [address] = world.sets.latency;
  const token = checks.tokens.get(address ?? '');
  if (!address || !token)
    throw new Error('no cached result to ask for (the latency section did not run)');
  const post = {
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ target: address }),
  };
  const paths = { post: '/ip/v1', get: `/ip/v1/${token}` };
  const bare = await startBareHttp({
    post: await answerOf(`${service.base}${paths.post}`, post),
    get: await answerOf(`${service.base}${paths.get}`),
  });
  const options = {
    connections: cachedConnections,
    pipelining: cachedPipelining,
    duration: cachedSeconds,
  };
  const runs: Record<string, { service: CannonRun; bare: CannonRun }> = {};
  try {
    for (const [name, request] of [
      ['cached POST', { ...post, path: paths.post }],
      ['GET by token', { path: paths.get }],
    ] as const) {
      progress(
        `4. ${name}, ${cachedSeconds} s on a bare node:http server then on the service, ${cachedConnections} connections, pipelining ${cachedPipelining}`,
      );
      const { path, ...init } = request;
      const onBare = await cannon(bare, { url: `${bare.base}${path}`, ...init, ...options });
      const onService = await cannon(service, {
        url: `${service.base}${path}`,
        ...init,
        ...options,
      });
      runs[name] = { service: onService, bare: onBare };
    }
  } finally {
    await bare.stop();
  }
  const setting = `${cachedConnections} conn., pipelining ${cachedPipelining}, ${cachedSeconds} s`;
  const rows: Row[] = Object.entries(runs).map(([name, { service: result, bare: ceiling }]) => {
    const bad = result.bad + ceiling.bad;
    return {
      section: 4,
      measurement: `${name} req/s (${setting}; p99 ${result.latency.p99} ms; CPU per request: service ${result.serviceCpuUs} µs, bare ${ceiling.serviceCpuUs} µs)`,
      value: result.rate,
      unit: '/s',
      reference: { label: 'bare node:http', value: ceiling.rate },
      ratio: ratioOf(result.rate, ceiling.rate),
      target: '≥ 10000',
      met: result.rate >= 10_000 && result.bad === 0,
      ...(bad > 0 ? { note: `${result.bad} errors or non-2xx (bare server: ${ceiling.bad})` } : {}),
    };
  });
  return { rows, details: runs };
}
