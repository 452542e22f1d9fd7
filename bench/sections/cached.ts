import { cannon } from '../cannon.js';
import type { Row } from '../report.js';
import type { BenchContext, SectionResult } from './context.js';

/** 4. Cached path: the same POST again (result cache) and GET by token. */
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
  const options = {
    connections: cachedConnections,
    pipelining: cachedPipelining,
    duration: cachedSeconds,
  };
  progress(
    `4. cached POST, ${cachedSeconds} s, ${cachedConnections} connections, pipelining ${cachedPipelining}`,
  );
  const post = await cannon(service, {
    url: `${service.base}/ip/v1`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ target: address }),
    ...options,
  });
  progress(`4. GET by token, ${cachedSeconds} s`);
  const get = await cannon(service, { url: `${service.base}/ip/v1/${token}`, ...options });
  const setting = `${cachedConnections} conn., pipelining ${cachedPipelining}`;
  const rows: Row[] = [];
  for (const [name, result] of [
    ['cached POST', post],
    ['GET by token', get],
  ] as const) {
    rows.push({
      section: 4,
      measurement: `${name} req/s (${setting}, ${cachedSeconds} s; p99 ${result.latency.p99} ms; service CPU ${result.serviceCpuUs} µs/req)`,
      value: result.rate,
      unit: '/s',
      target: '≥ 10000',
      met: result.rate >= 10_000 && result.bad === 0,
      ...(result.bad > 0 ? { note: `${result.bad} errors or non-2xx` } : {}),
    });
  }
  return { rows, details: { post, get } };
}
