import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { aggregateXml, gzipped, type Row as RecordRow } from '../../fixtures/report-files.js';
import { seededRandom } from '../../fixtures/seeded-random.js';
import { defaultReadLimits, readReports } from '../../src/reports/read/index.js';
import type { Row } from '../report.js';
import { type RunningService, startService } from '../service.js';
import { round } from '../stats.js';
import type { BenchContext, SectionResult } from './context.js';

/**
 * 15. The reports' intake (docs/benchmarks.md, "Reports intake"): 2,000 gzip aggregate reports of
 * 100 records (200,000 records) uploaded through `POST /reports/v1/{id}/upload` over HTTP to a
 * service of its own whose report store is a SQLite file (REPORTS_URL), BENCH_INTAKE_CONNECTIONS
 * at a time (default 4); and in the same run the same files read bare in this process by the
 * same reader (`readReports`: gunzip, the same XML parser with the same options, the same model).
 * Both go in 4 rounds of a quarter of the files, each side first in turn, after a warm-up of 100
 * other files each. Records a second for both and their ratio (the goal: the service at least
 * half the bare rate), and the CPU per report of each (the service's from /proc), the ratio a
 * shared machine's load moves least. BENCH_INTAKE_REPORTS scales the run (default 2,000).
 */

const recordsPerReport = 100;
const warmUpReports = 100;
/** The files go in this many rounds, each side first in turn. */
const rounds = 4;
const goalRatio = 0.5;
export const domain = 'intake-bench.com';
const reporters = ['google.com', 'Outlook.com', 'Yahoo', 'Mail.Ru'];
/** Sending addresses the records name: a busy domain's, with a long tail. */
const sourceCount = 3000;

/** The files, seeded: the same reports every run, each with its own report id. */
export function reportFiles(count: number, firstId: number): Uint8Array[] {
  const random = seededRandom(firstId + 1);
  const today = Date.now();
  return Array.from({ length: count }, (_, index) => {
    const rows: RecordRow[] = Array.from({ length: recordsPerReport }, () => {
      // A power law: a few addresses send most of the mail.
      const source = Math.floor(sourceCount * random() ** 3);
      const forwarded = random() < 0.1;
      return {
        ip: `${100 + (source >> 8)}.${source & 255}.${(source * 7) & 255}.9`,
        count: 1 + Math.floor(random() * 200),
        dkim: random() > 0.05,
        spf: !forwarded && random() > 0.05,
      };
    });
    const date = new Date(today - (1 + (index % 30)) * 86_400_000).toISOString().slice(0, 10);
    return gzipped(
      aggregateXml({
        org: reporters[index % reporters.length]!,
        reportId: `intake-bench-${firstId + index}`,
        domain,
        date,
        rows,
      }),
    );
  });
}

/** Every file read bare, one after the other: records a second. */
export async function readBare(
  files: readonly Uint8Array[],
): Promise<{ ms: number; cpuMs: number; records: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let records = 0;
  for (const file of files) {
    for (const report of await readReports(file, 'application/gzip', defaultReadLimits)) {
      if (report.kind === 'dmarc') records += report.rows.length;
    }
  }
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, records };
}

/** One POST over a keep-alive agent: its status and its JSON. */
function post(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: Uint8Array,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': String(body.length) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            json: JSON.parse(Buffer.concat(chunks).toString()) as unknown,
          }),
        );
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

/**
 * Every file uploaded, `connections` at a time, over an agent of its own that is closed after
 * (so no idle connection outlives the service's keep-alive while the bare read runs): the
 * records the service says it took, and the service's CPU meanwhile.
 */
async function upload(
  service: RunningService,
  inbox: { id: string; key: string },
  files: readonly Uint8Array[],
  connections: number,
): Promise<{ ms: number; cpuMs: number; records: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const url = `${service.base}/reports/v1/${inbox.id}/upload`;
  const headers = { authorization: `Bearer ${inbox.key}`, 'content-type': 'application/gzip' };
  const cpuBefore = await service.cpuMs();
  const started = performance.now();
  let next = 0;
  let records = 0;
  const worker = async () => {
    while (next < files.length) {
      const answer = await post(agent, url, headers, files[next++]!);
      const received = (answer.json as { received?: { records: number; duplicate: boolean }[] })
        .received;
      if (answer.status !== 201 || !received) {
        throw new Error(`upload answered ${answer.status}: ${JSON.stringify(answer.json)}`);
      }
      for (const report of received) {
        if (report.duplicate) throw new Error('a bench report was taken as a duplicate');
        records += report.records;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    agent.destroy();
  }
  const ms = performance.now() - started;
  return { ms, cpuMs: (await service.cpuMs()) - cpuBefore, records };
}

/** Two phases' sums. */
const plus = <T extends Record<string, number>>(a: T, b: T): T =>
  Object.fromEntries(Object.keys(a).map((key) => [key, a[key]! + b[key]!])) as T;

export async function measureReportsIntake(context: BenchContext): Promise<SectionResult> {
  const reportCount = Number(process.env.BENCH_INTAKE_REPORTS ?? 2000);
  const connections = Number(process.env.BENCH_INTAKE_CONNECTIONS ?? 4);
  context.progress(`reports intake: writing ${reportCount} gzip reports`);
  const warmUp = reportFiles(warmUpReports, 0);
  const files = reportFiles(reportCount, warmUpReports);
  const bytes = files.reduce((sum, file) => sum + file.length, 0);

  const folder = mkdtempSync(join(tmpdir(), 'bench-intake-'));
  const service = await startService({
    dnsServer: context.dns.address,
    env: { ...context.serviceLaunch.env, REPORTS_URL: `sqlite:${join(folder, 'reports.db')}` },
    nodeFlags: context.serviceLaunch.nodeFlags,
    ...(context.serviceLaunch.cpuProfileDir
      ? { cpuProfileDir: join(context.serviceLaunch.cpuProfileDir, 'reports-intake') }
      : {}),
  });
  try {
    const created = await fetch(`${service.base}/reports/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({ domain }),
    });
    const inbox = (await created.json()) as { id: string; key: string };
    if (created.status !== 201) throw new Error(`POST /reports/v1 answered ${created.status}`);

    // Each side warms up on files of its own, then the files go in rounds, the bare read and the
    // service taking turns first, so that the machine's drift (it is shared) falls on both.
    await readBare(warmUp);
    await upload(service, inbox, warmUp, connections);
    let bare = { ms: 0, cpuMs: 0, records: 0 };
    let served = { ms: 0, cpuMs: 0, records: 0 };
    const size = Math.ceil(files.length / rounds);
    for (let turn = 0; turn < rounds; turn++) {
      const chunk = files.slice(turn * size, (turn + 1) * size);
      const readChunk = async () => (bare = plus(bare, await readBare(chunk)));
      const uploadChunk = async () =>
        (served = plus(served, await upload(service, inbox, chunk, connections)));
      if (turn % 2 === 0) await readChunk().then(uploadChunk);
      else await uploadChunk().then(readChunk);
      context.progress(`reports intake: round ${turn + 1} of ${rounds}`);
    }
    const cpuMs = served.cpuMs;
    // What the intake's allocations cost in memory (a larger young generation is paid for here).
    const memory = await service.memory();
    if (served.records !== bare.records) {
      throw new Error(`the service took ${served.records} records, the files hold ${bare.records}`);
    }

    const bareRate = round((bare.records / bare.ms) * 1000, 0);
    const servedRate = round((served.records / served.ms) * 1000, 0);
    const ratio = round(servedRate / bareRate, 2);
    const load = loadavg()
      .map((each) => round(each))
      .join(' ');
    const rows: Row[] = [
      {
        section: 15,
        measurement: `reports intake: records taken a second over HTTP into a SQLite report store, beside the same files read bare (${reportCount} gzip reports of ${recordsPerReport} records, ${round(bytes / 2 ** 20)} MiB, ${connections} at a time; load average ${load})`,
        value: servedRate,
        unit: '/s',
        reference: { label: 'read bare', value: bareRate },
        ratio,
        target: `ratio >= ${goalRatio}`,
        met: ratio >= goalRatio,
      },
      {
        section: 15,
        measurement:
          'reports intake: the same files read bare in one process (gunzip, the XML parser, the model)',
        value: bareRate,
        unit: '/s',
      },
      {
        section: 15,
        measurement:
          'reports intake: the service’s CPU per report taken (HTTP, read, stored), beside the bare read’s CPU per report',
        value: round(cpuMs / reportCount, 2),
        unit: 'ms',
        reference: { label: 'read bare', value: round(bare.cpuMs / reportCount, 2) },
        ratio: round(bare.cpuMs / cpuMs, 2),
      },
      {
        section: 15,
        measurement: `reports intake: the service’s peak RSS (VmHWM) after the uploads (RSS then ${round(memory.rssMiB)} MiB)`,
        value: round(memory.hwmMiB),
        unit: 'MiB',
      },
    ];
    return {
      rows,
      details: {
        reports: reportCount,
        records: served.records,
        bytes,
        connections,
        bare: { ms: round(bare.ms), cpuMs: round(bare.cpuMs), recordsPerSecond: bareRate },
        served: { ms: round(served.ms), recordsPerSecond: servedRate, cpuMs: round(cpuMs) },
        memory,
        ratio,
        load,
      },
    };
  } finally {
    await service.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}
