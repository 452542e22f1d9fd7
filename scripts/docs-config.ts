import { readFile, writeFile } from 'node:fs/promises';
import { configurationDoc, withCurrentTable } from './configuration-doc.js';

/** `npm run docs:config`: rewrites the table of docs/configuration.md from the configuration tables. */

const document = await readFile(configurationDoc, 'utf8');
const current = await withCurrentTable(document);
if (current === document) console.log('docs/configuration.md is current');
else {
  await writeFile(configurationDoc, current);
  console.log('docs/configuration.md: table rewritten');
}
