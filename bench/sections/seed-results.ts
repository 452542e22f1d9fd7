import type { BenchContext } from './context.js';
import { cardAddresses } from './share.js';

/**
 * Without the latency section, the results the cached and share sections ask for: the same
 * addresses the latency section would check, made with no injected latency.
 */
export async function seedResults({
  settings,
  world,
  dns,
  checks,
  progress,
}: BenchContext): Promise<void> {
  progress('seeding results for the cached and share sections (latency section not selected)');
  await dns.setLatency(0);
  const { latency, latencyListed } = world.sets;
  const { warmup, measured } = cardAddresses(world, settings);
  const listed = new Set(latencyListed);
  const clean = [...latency.slice(0, 1), ...warmup, ...measured.filter((a) => !listed.has(a))];
  for (const address of clean) await checks.check(address);
  for (const address of latencyListed) await checks.check(address, true);
}
