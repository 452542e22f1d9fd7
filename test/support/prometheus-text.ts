/**
 * The Prometheus text exposition format (version 0.0.4), read strictly: every line is a `# HELP`
 * or `# TYPE` comment, or a sample `name{label="value",...} value`; anything else throws, so a
 * test that reads the metrics through this also proves a scraper could.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** Each metric family's name and type (`# TYPE`). */
  types: Map<string, string>;
}

const metricName = '[a-zA-Z_:][a-zA-Z0-9_:]*';
/** Values as Prometheus reads them (Go's ParseFloat): NaN and Inf in any case. */
const sampleLine = new RegExp(
  `^(${metricName})(?:\\{(.*)\\})? (-?[0-9.]+(?:[eE][+-]?[0-9]+)?|[nN][aA][nN]|[+-][iI][nN][fF])(?: -?[0-9]+)?$`,
);
const labelPair = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"(,|$)/;

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest !== '') {
    const pair = labelPair.exec(rest);
    if (!pair) throw new Error(`not a label list: ${line}`);
    labels[pair[1]!] = pair[2]!.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(pair[0].length);
  }
  return labels;
}

function valueOf(text: string): number {
  const lower = text.toLowerCase();
  if (lower === 'nan') return Number.NaN;
  if (lower === '+inf') return Number.POSITIVE_INFINITY;
  if (lower === '-inf') return Number.NEGATIVE_INFINITY;
  return Number(text);
}

export function parsePrometheusText(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const comment = new RegExp(`^# (HELP|TYPE) (${metricName}) (.*)$`).exec(line);
      if (!comment) throw new Error(`not a HELP or TYPE line: ${line}`);
      if (comment[1] === 'TYPE') types.set(comment[2]!, comment[3]!);
      continue;
    }
    const sample = sampleLine.exec(line);
    if (!sample) throw new Error(`not a sample line: ${line}`);
    samples.push({
      name: sample[1]!,
      labels: parseLabels(sample[2] ?? '', line),
      value: valueOf(sample[3]!),
    });
  }
  return { samples, types };
}

/** The value of the one sample of `name` whose labels include `labels`; undefined if none. */
export function sampleValue(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const matching = exposition.samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (matching.length > 1) throw new Error(`${matching.length} samples of ${name} match`);
  return matching[0]?.value;
}

/**
 * Every metric name the exposition exports: each family, and the series a histogram or summary
 * writes (`_bucket`, `_sum`, `_count`), as PromQL names them.
 */
export function exportedNames(exposition: Exposition): Set<string> {
  const names = new Set<string>();
  for (const [family, type] of exposition.types) {
    names.add(family);
    if (type === 'histogram')
      for (const end of ['_bucket', '_sum', '_count']) names.add(family + end);
    if (type === 'summary') for (const end of ['_sum', '_count']) names.add(family + end);
  }
  return names;
}
