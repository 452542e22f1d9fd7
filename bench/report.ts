import { writeFile } from 'node:fs/promises';

/** The benchmark's rows: each figure beside its floor, ceiling or peer, the ratio and the target. */

export interface Row {
  /** Issue #6's numbering: 1 latency ... 6 memory. */
  section: number;
  measurement: string;
  value: number;
  unit: string;
  /** The floor, ceiling or peer this figure is compared with. */
  reference?: { label: string; value: number };
  /** value / reference. */
  ratio?: number;
  /** The target in words, when the row has one. */
  target?: string;
  met?: boolean;
  note?: string;
}

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
