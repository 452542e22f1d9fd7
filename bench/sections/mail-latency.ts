import { bundledSelectorTable, selectorsToTry } from '../../src/reputation/mail/dkim-selectors.js';
import { startMailServers } from '../mail-world.js';
import { createMailFloor } from '../reference/mail-floor.js';
import { cpuTargets, ratioOf, type Row } from '../report.js';
import { startService } from '../service.js';
import { type Distribution, distribution, round, timed } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * 12. Latency of one uncached mail check (POST /mail/v1) through HTTP, one at a time, 20 ms per
 * DNS answer, beside its floor (bench/reference/mail-floor.ts: the same DNS round trips, SMTP
 * session and policy fetch done bare). A service of its own: it trusts the section's CA
 * (NODE_EXTRA_CA_CERTS) and may probe loopback (PROBE_ALLOW_NETWORKS, the two ports). Each domain
 * is fresh (its own MX host, policy host and sender address, bench/mail-world.ts), asked first by
 * the floor and then by the service, so both see the same moments of noise.
 */

/** What a full, fresh mail check of the bench world answers. */
interface MailAnswer {
  from_cache?: boolean;
  mx?: { smtp?: { status?: string } }[];
  mta_sts?: { status?: string };
  dkim?: { status?: string };
  requirements?: { gmail?: { verdict?: string } };
}

function isFullFreshCheck(status: number, body: Buffer): boolean {
  if (status !== 200) return false;
  const answer = JSON.parse(body.toString('utf8')) as MailAnswer;
  return (
    answer.from_cache === false &&
    answer.mx?.[0]?.smtp?.status === 'ok' &&
    answer.mta_sts?.status === 'enforce' &&
    answer.dkim?.status === 'found' &&
    answer.requirements?.gmail?.verdict !== undefined
  );
}

const benchOperatorToken = 'operator-token-of-the-mail-bench';
const operatorHeaders = { authorization: `Bearer ${benchOperatorToken}` };

export async function measureMailLatency(context: BenchContext): Promise<SectionResult> {
  const { settings, world, dns, serviceLaunch, http, progress } = context;
  const { injectedLatencyMs, mailWarmupChecks } = settings;
  const warmup = world.mail.domains.slice(0, mailWarmupChecks);
  const measured = world.mail.domains.slice(mailWarmupChecks);
  progress(
    `12. mail: a service that trusts the section's CA, ${measured.length} checks and floors`,
  );
  await dns.setLatency(injectedLatencyMs);
  const servers = await startMailServers(world.mail);
  const service = await startService({
    dnsServer: dns.address,
    env: {
      ...serviceLaunch.env,
      NODE_EXTRA_CA_CERTS: servers.caFile,
      PROBE_ALLOW_NETWORKS: '127.0.0.0/8',
      // Only the operator's checks reach PROBE_ALLOW_NETWORKS, where the bench's servers are.
      OPERATOR_TOKEN: benchOperatorToken,
      PROBE_SMTP_PORT: String(servers.smtpPort),
      PROBE_HTTPS_PORT: String(servers.httpsPort),
    },
    nodeFlags: serviceLaunch.nodeFlags,
  });
  try {
    const floor = createMailFloor({
      dnsServer: dns.address,
      ipZones: world.ipZoneNames,
      selectors: selectorsToTry(bundledSelectorTable(), {
        caller: [],
        mxHosts: [],
        spfDomains: [],
      }).map((tried) => tried.selector),
      smtpPort: servers.smtpPort,
      httpsPort: servers.httpsPort,
      caCert: servers.caCert,
      timeoutMs: 10_000,
    });
    const check = async (domain: string) => {
      const answer = await http.postJson(`${service.base}/mail/v1`, { domain }, operatorHeaders);
      return isFullFreshCheck(answer.status, answer.body);
    };
    // The first checks of a process pay for connections and JIT: left out of both.
    for (const domain of warmup) {
      await floor.check(domain);
      await check(domain.domain);
    }
    const floorTimes: number[] = [];
    const serviceTimes: number[] = [];
    let wrong = 0;
    for (const domain of measured) {
      floorTimes.push(await timed(() => floor.check(domain)));
      const started = performance.now();
      if (!(await check(domain.domain))) wrong++;
      serviceTimes.push(performance.now() - started);
    }
    const floorD = distribution(floorTimes);
    const serviceD = distribution(serviceTimes);
    return {
      rows: mailRows(injectedLatencyMs, floorD, serviceD, wrong),
      details: { floor: floorD, service: serviceD, wrong },
    };
  } finally {
    await service.stop();
    await servers.close();
  }
}

function mailRows(
  injectedLatencyMs: number,
  floorD: Distribution,
  serviceD: Distribution,
  wrong: number,
): Row[] {
  const over = cpuTargets.mailLatencyOverFloorMs;
  return [
    {
      section: 12,
      measurement: `uncached mail check p50 (HTTP, ${injectedLatencyMs} ms/answer, SMTP with STARTTLS and the MTA-STS policy on loopback, n=${serviceD.n}; ${round(serviceD.p50 - floorD.p50)} ms over the floor)`,
      value: serviceD.p50,
      unit: 'ms',
      reference: { label: 'floor', value: floorD.p50 },
      ratio: ratioOf(floorD.p50, serviceD.p50),
      target: `≤ floor + ${over} (${round(floorD.p50 + over)})`,
      met: serviceD.p50 <= floorD.p50 + over && wrong === 0,
      ...(wrong > 0 ? { note: `${wrong} checks not a full fresh result` } : {}),
    },
    {
      section: 12,
      measurement: 'uncached mail check p95',
      value: serviceD.p95,
      unit: 'ms',
      reference: { label: 'floor', value: floorD.p95 },
      ratio: ratioOf(floorD.p95, serviceD.p95),
    },
  ];
}
