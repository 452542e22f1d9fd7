import { type BenchDns, startBenchDns } from '../dns-fixture.js';
import { ensureBuilt } from '../service.js';
import { readSettings } from '../settings.js';
import { type BenchWorld, buildWorld } from '../world.js';

/**
 * What every side-by-side experiment stands on: dist/ built if stale, the bench's world with room
 * for `checks` fresh addresses (BENCH_MEMORY_CHECKS), and its fixture DNS answering at once;
 * `withSoakZones` adds the soak world's zones (ab-cpu.ts's mail and domain checks).
 */
export async function startExperimentWorld(
  checks: number,
  options: { withSoakZones?: boolean } = {},
): Promise<{ world: BenchWorld; dns: BenchDns }> {
  ensureBuilt();
  const settings = readSettings({ ...process.env, BENCH_MEMORY_CHECKS: String(checks) });
  const world = await buildWorld(settings);
  const dns = await startBenchDns({
    addressCount: world.addressCount,
    ipv6AddressCount: world.ipv6AddressCount,
    listings: world.listings,
    latencyMs: 0,
    ...(options.withSoakZones ? { extraZones: world.soak.zones } : {}),
  });
  return { world, dns };
}
