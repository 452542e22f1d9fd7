import { z } from 'zod';
import { format, resolveConfig } from 'prettier';
import { sharedVariables } from '../src/config/index.js';
import { type Table, type Variable, variablesOf } from '../src/config/index.js';
import { nodeOnlyVariables } from '../src/node/config.js';
import { workersOnlyVariables } from '../src/workers/config.js';

/**
 * The table of docs/configuration.md, generated from the configuration tables (src/config/variables.ts,
 * src/node/config.ts, src/workers/config.ts), so that a variable's default, accepted values and
 * meaning are written once. `npm run docs:config` writes it; test/scripts/configuration-doc.test.ts
 * fails when the file's table is not the one these tables give.
 */

export const configurationDoc = new URL('../docs/configuration.md', import.meta.url);
export const command = 'npm run docs:config';

const start = `<!-- The table below is generated from the configuration tables: run \`${command}\`. -->`;
const end = '<!-- End of the generated table. -->';

/** Every table, with the runtimes that read its variables. */
export const tables: [runtime: string, table: Table][] = [
  ['all', sharedVariables],
  ['Node', nodeOnlyVariables],
  ['Workers', workersOnlyVariables],
];

const code = (text: string) => `\`${text}\``;

/** The values a variable's parser accepts, where its schema says them: a range, a choice. */
function accepts(entry: Variable): string {
  const schema = z.toJSONSchema(entry.parser, { io: 'input', unrepresentable: 'any' });
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => code(String(value))).join(', ');
  if (typeof schema.minimum === 'number' && typeof schema.maximum === 'number') {
    const number = (value: number) => value.toLocaleString('en-US');
    return `${number(schema.minimum)}–${number(schema.maximum)}`;
  }
  return '';
}

const cell = (text: string) => text.replaceAll('|', '\\|');

export function configurationTable(): string {
  const rows = tables.flatMap(([runtime, table]) =>
    variablesOf(table).map((entry) =>
      [
        code(entry.name),
        runtime,
        entry.default ? code(entry.default) : 'unset',
        accepts(entry),
        entry.meaning,
      ].map(cell),
    ),
  );
  return [
    '| Variable | Runtime | Default | Accepts | Meaning |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/** The document with its generated table replaced by the current one, formatted as the repository formats Markdown. */
export async function withCurrentTable(document: string): Promise<string> {
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from < 0 || to < from)
    throw new Error(`docs/configuration.md lacks the markers:\n${start}\n${end}`);
  const text = `${document.slice(0, from + start.length)}\n\n${configurationTable()}\n\n${document.slice(to)}`;
  const options = await resolveConfig(configurationDoc);
  return format(text, { ...options, parser: 'markdown' });
}
