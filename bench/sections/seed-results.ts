import type { BenchContext } from './context.js';
import { measuredCardAddresses } from './share.js';

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
  const listed = new Set(latencyListed);
  const measured = measuredCardAddresses(world, settings).filter((address) => !listed.has(address));
  for (const address of [...latency.slice(0, 1), ...measured]) await checks.check(address);
  for (const address of latencyListed) await checks.check(address, true);
}
