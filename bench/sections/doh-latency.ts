import { createIpChecks } from '../ip-checks.js';
import { cpuTargets, ratioOf, type Row } from '../report.js';
import { startService } from '../service.js';
import { measureFreshServiceCpu, writeZoneFile } from './check-cpu.js';
import { distribution } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * 1b. Uncached IP check latency with DNS_TRANSPORT=doh beside the UDP transport: a second
 * service resolving through the fixture's DoH endpoint (the same world, 20 ms per answer), each
 * address checked through one service and then the other, so both see the same moments of noise.
 */
export async function measureDohLatency(context: BenchContext): Promise<SectionResult> {
  const { settings, world, dns, serviceLaunch, http, checks, progress } = context;
  const { injectedLatencyMs } = settings;
  const addresses = world.sets.dohLatency;
  progress(`1b. DoH latency: a service with DNS_TRANSPORT=doh, ${addresses.length} checks each`);
  await dns.setLatency(injectedLatencyMs);
  const dohService = await startService({
    dnsServer: dns.address,
    env: { ...serviceLaunch.env, DNS_TRANSPORT: 'doh', DOH_URL: dns.dohUrl },
    nodeFlags: serviceLaunch.nodeFlags,
  });
  try {
    const dohChecks = createIpChecks(http, dohService.base, settings.concurrency);
    // The first checks of a process pay for connections and JIT: left out of both.
    const warmup = addresses.slice(0, 10);
    const measured = addresses.slice(10);
    for (const address of warmup) {
      await checks.check(address);
      await dohChecks.check(address);
    }
    const udpTimes: number[] = [];
    const dohTimes: number[] = [];
    let wrong = 0;
    for (const address of measured) {
      let started = performance.now();
      if (!(await checks.check(address))) wrong++;
      udpTimes.push(performance.now() - started);
      started = performance.now();
      if (!(await dohChecks.check(address))) wrong++;
      dohTimes.push(performance.now() - started);
    }
    const udp = distribution(udpTimes);
    const doh = distribution(dohTimes);
    const rows: Row[] = [
      {
        section: 1,
        // Comparisons with the UDP transport, not limits: the ratios go in the text.
        measurement: `uncached IP check p50 over DoH (HTTP, ${injectedLatencyMs} ms/answer, n=${doh.n}; ${ratioOf(doh.p50, udp.p50)}× UDP)`,
        value: doh.p50,
        unit: 'ms',
        reference: { label: 'UDP', value: udp.p50 },
        ...(wrong > 0 ? { note: `${wrong} checks not a full fresh result` } : {}),
      },
      {
        section: 1,
        measurement: `uncached IP check p95 over DoH (${ratioOf(doh.p95, udp.p95)}× UDP)`,
        value: doh.p95,
        unit: 'ms',
        reference: { label: 'UDP', value: udp.p95 },
      },
    ];
    await dohService.stop();
    const cpu = await compareCpu(context);
    rows.push({
      section: 1,
      measurement: `service CPU per uncached IP check over DoH, ${cpu.lists} IP lists, ${cpu.concurrency} at a time, memory store (n=${cpu.doh.done}, after ${cpu.warmup} checks; ${ratioOf(cpu.doh.cpuPerCheckMs, cpu.udp.cpuPerCheckMs)}× UDP)`,
      value: cpu.doh.cpuPerCheckMs,
      unit: 'ms',
      reference: { label: 'UDP', value: cpu.udp.cpuPerCheckMs },
      target: `≤ ${cpuTargets.dohCpuOverUdp} × UDP`,
      met:
        cpu.doh.cpuPerCheckMs <= cpuTargets.dohCpuOverUdp * cpu.udp.cpuPerCheckMs &&
        wrong === 0 &&
        cpu.doh.failed === 0 &&
        cpu.udp.failed === 0,
    });
    return { rows, details: { udp, doh, cpu, wrong } };
  } finally {
    await dohService.stop();
  }
}

/**
 * The CPU of an uncached check over DoH beside UDP, measured as section 2's CPU rows are: a fresh
 * memory-store service for each transport, the 18 IP lists the CPU targets were set at, `BENCH_CPU_WARMUP` uncounted
 * checks 24 at a time ("Warm-up" in docs/benchmarks.md), then the 1,200 checks of the loaded row,
 * 24 at a time, without injected latency; the service process's user + system time per check.
 */
async function compareCpu(context: BenchContext) {
  const { settings, world, dns, progress } = context;
  const concurrency = settings.cpuLoadedConcurrency;
  const lists = 18;
  const zonesFile = await writeZoneFile(world.ipZoneNames, lists);
  await dns.setLatency(0);
  const measure = (transport: 'udp' | 'doh') => {
    progress(`1b. DoH CPU: a fresh memory-store service over ${transport.toUpperCase()}`);
    return measureFreshServiceCpu(context, {
      env: {
        DNSBL_ZONES_FILE: zonesFile,
        ...(transport === 'doh' ? { DNS_TRANSPORT: 'doh', DOH_URL: dns.dohUrl } : {}),
      },
      profileName: `cpu-${transport}`,
      warmup: world.sets.cpuWarmup[0]!,
      addresses: world.sets.cpuLoaded,
      concurrency,
    });
  };
  const udp = await measure('udp');
  const doh = await measure('doh');
  await dns.setLatency(settings.injectedLatencyMs);
  return { lists, concurrency, warmup: udp.warmup.checks, udp, doh };
}
