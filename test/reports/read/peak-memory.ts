import { readFileSync } from 'node:fs';
import {
  defaultReadLimits,
  readReports,
  ReportReadError,
} from '../../../src/reports/read/index.js';

/**
 * Run by bounds.test.ts in a process of its own (`node --import tsx peak-memory.ts <file>
 * <media type>`): reads one body with the default limits and prints, as one JSON line, the
 * refusal and how far the process's peak resident set rose while reading. A fresh process, so
 * the peak before reading is the modules' and the body's, not another test's.
 */

const [file, mediaType] = process.argv.slice(2);
const body = new Uint8Array(readFileSync(file!));
const before = process.resourceUsage().maxRSS;
let outcome: Record<string, unknown>;
try {
  outcome = { reports: (await readReports(body, mediaType, defaultReadLimits)).length };
} catch (error) {
  if (!(error instanceof ReportReadError)) throw error;
  outcome = { code: error.code, reason: error.reason };
}
// resourceUsage().maxRSS is in kibibytes.
const peakGrowthBytes = (process.resourceUsage().maxRSS - before) * 1024;
process.stdout.write(`${JSON.stringify({ ...outcome, peakGrowthBytes })}\n`);
