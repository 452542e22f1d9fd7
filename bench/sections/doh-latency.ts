import { createIpChecks } from '../ip-checks.js';
import { cpuTargets, ratioOf, type Row } from '../report.js';
import { startService } from '../service.js';
import { distribution, round } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * 1b. Uncached IP check latency with DNS_TRANSPORT=doh beside the UDP transport: a second
 * service resolving through the fixture's DoH endpoint (the same world, 20 ms per answer), each
 * address checked through one service and then the other, so both see the same moments of noise.
 */
export async function measureDohLatency({
  settings,
  world,
  dns,
  service,
  serviceLaunch,
  http,
  checks,
  progress,
}: BenchContext): Promise<SectionResult> {
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
    const cpuBefore = { udp: await service.cpuMs(), doh: await dohService.cpuMs() };
    for (const address of measured) {
      let started = performance.now();
      if (!(await checks.check(address))) wrong++;
      udpTimes.push(performance.now() - started);
      started = performance.now();
      if (!(await dohChecks.check(address))) wrong++;
      dohTimes.push(performance.now() - started);
    }
    const cpuPerCheck = {
      udp: round(((await service.cpuMs()) - cpuBefore.udp) / measured.length),
      doh: round(((await dohService.cpuMs()) - cpuBefore.doh) / measured.length),
    };
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
      {
        section: 1,
        measurement: `service CPU per uncached check over DoH (${ratioOf(cpuPerCheck.doh, cpuPerCheck.udp)}× UDP)`,
        value: cpuPerCheck.doh,
        unit: 'ms',
        reference: { label: 'UDP', value: cpuPerCheck.udp },
        target: `≤ ${cpuTargets.dohCpuOverUdp} × UDP`,
        met: cpuPerCheck.doh <= cpuTargets.dohCpuOverUdp * cpuPerCheck.udp && wrong === 0,
      },
    ];
    return { rows, details: { udp, doh, cpuPerCheck, wrong } };
  } finally {
    await dohService.stop();
  }
}
