import { readFile, writeFile } from 'node:fs/promises';
import { configurationDoc, withCurrentTable } from './configuration-doc.js';
import { generatedFiles, readSources } from './generated-tables.js';

/**
 * `npm run docs:tables`: every generated block of the docs written again from the code
 * (scripts/generated-tables.ts), docs/configuration.md's table with them.
 */

const written: string[] = [];
for (const { path, text, current } of await generatedFiles(await readSources())) {
  if (current === text) continue;
  await writeFile(new URL(`../${path}`, import.meta.url), current);
  written.push(path);
}
const configuration = await readFile(configurationDoc, 'utf8');
const configurationNow = await withCurrentTable(configuration);
if (configurationNow !== configuration) {
  await writeFile(configurationDoc, configurationNow);
  written.push('docs/configuration.md');
}
console.log(
  written.length === 0 ? 'the generated tables are current' : `rewritten: ${written.join(', ')}`,
);
