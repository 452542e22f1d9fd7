import type { DnsReference } from '../reference/dns-reference.js';
import type { BenchDns } from '../dns-fixture.js';
import type { HttpClient } from '../http.js';
import type { IpChecks } from '../ip-checks.js';
import type { Row } from '../report.js';
import type { RunningService } from '../service.js';
import type { Settings } from '../settings.js';
import type { BenchWorld } from '../world.js';

/** What every section is given, set up once by run.ts, and what each gives back. */

export interface BenchContext {
  settings: Settings;
  world: BenchWorld;
  dns: BenchDns;
  service: RunningService;
  /**
   * How the service was started, so a section can start a fresh one the same way (the CPU section
   * profiles its own services under cpuProfileDir when BENCH_CPU_PROF_DIR is set).
   */
  serviceLaunch: { env: Record<string, string>; nodeFlags: string[]; cpuProfileDir?: string };
  http: HttpClient;
  /** The floor of section 1 and the ceiling of section 2. */
  reference: DnsReference;
  checks: IpChecks;
  /** A line on stderr with the time since the run started. */
  progress(message: string): void;
}

export interface SectionResult {
  rows: Row[];
  /** Written to results.json under the section's name. */
  details: object;
}

export type BenchSection = (context: BenchContext) => Promise<SectionResult>;
