import { writeFile } from 'node:fs/promises';

/** The benchmark's rows: each figure beside its floor, ceiling or peer, the ratio and the target. */

export interface Row {
  /** docs/benchmarks.md's numbering: 1 latency ... 11 watches. */
  section: number;
  measurement: string;
  value: number;
  unit: string;
  /** The floor, ceiling or peer this figure is compared with. */
  reference?: { label: string; value: number };
  /** value / reference. */
  ratio?: number;
  /** The row's target in words, when it has one. */
  target?: string;
  met?: boolean;
  note?: string;
}

/**
 * The CPU targets (docs/benchmarks.md#cpu-per-check: CPU per check, the references of sections 2
 * and 3, DoH), in one place: the
 * sections' rows read them, and the results table says whether each is met.
 */
export const cpuTargets = {
  /** Service CPU per uncached IP check, ms, one at a time and 24 at a time (memory store). */
  cpuPerCheckSequentialMs: 2.5,
  cpuPerCheckLoadedMs: 1.0,
  /** Uncached checks a second, as a share of the bare node:dgram ceiling. */
  throughputOfCeiling: 0.7,
  /** The engine's checks a second, as a multiple of the peer's. */
  engineOverPeer: 2,
  /** Service CPU per check over DoH on Node, as a multiple of UDP's. */
  dohCpuOverUdp: 2,
  /** An uncached check's p50 may exceed its floor's by this many ms. */
  latencyOverFloorMs: 10,
  /**
   * An uncached mail check's p50 may exceed its floor's by this many ms (docs/benchmarks.md,
   * section 12): it parses about 40 answers, a certificate and a policy, and judges three
   * providers' rules, where the IP check reads 33 list answers.
   */
  mailLatencyOverFloorMs: 25,
  /**
   * Service CPU per uncached IP check when the answers trickle (section 14), as a multiple of the
   * bare client's asking the same questions through the same forwarder in the same run.
   */
  trickleOverBare: 1.5,
} as const;

export function ratioOf(value: number, reference: number): number {
  return reference === 0 ? Number.NaN : Math.round((value / reference) * 100) / 100;
}

function cell(value: number | undefined, unit = ''): string {
  if (value === undefined || Number.isNaN(value)) return '';
  const text = Math.abs(value) >= 100 ? String(Math.round(value)) : String(value);
  return unit ? `${text} ${unit}` : text;
}

/** A Markdown table, readable in a terminal and pasteable into docs/benchmarks.md. */
export function formatTable(rows: readonly Row[]): string {
  const header = ['#', 'Measurement', 'Value', 'Floor / ceiling / peer', 'Ratio', 'Target', 'Met'];
  const lines = rows.map((row) => [
    String(row.section),
    row.measurement,
    cell(row.value, row.unit),
    row.reference ? `${row.reference.label} ${cell(row.reference.value, row.unit)}` : '',
    row.ratio === undefined ? '' : `${row.ratio}×`,
    row.target ?? '',
    row.met === undefined ? '' : row.met ? 'met' : 'NOT MET',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]!.length)),
  );
  const format = (line: string[]) =>
    `| ${line.map((text, column) => text.padEnd(widths[column]!)).join(' | ')} |`;
  return [
    format(header),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...lines.map(format),
  ].join('\n');
}

export async function writeResults(file: URL, results: object): Promise<void> {
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
}
