import autocannon, { type AutocannonOptions, type AutocannonResult } from 'autocannon';
import { round } from './stats.js';

export interface CannonRun {
  /** Completed 2xx responses per second over the measured duration. */
  rate: number;
  /** Errors, timeouts and non-2xx answers. */
  bad: number;
  latency: { p50: number; p99: number };
  total: number;
  seconds: number;
  /** Service CPU per answered request: steadier than the rate on a shared machine. */
  serviceCpuUs: number;
}

/** autocannon against `service`, with the rate from completed 2xx responses. */
export async function cannon(
  service: { cpuMs(): Promise<number> },
  options: AutocannonOptions,
): Promise<CannonRun> {
  const cpuBefore = await service.cpuMs();
  const result: AutocannonResult = await autocannon({ timeout: 10, ...options });
  const cpu = (await service.cpuMs()) - cpuBefore;
  return {
    serviceCpuUs: round((cpu * 1000) / Math.max(1, result['2xx'])),
    rate: round(result['2xx'] / result.duration),
    bad: result.errors + result.timeouts + result.non2xx,
    latency: { p50: result.latency.p50, p99: result.latency.p99 },
    total: result['2xx'],
    seconds: result.duration,
  };
}
