import { readFile, writeFile } from 'node:fs/promises';
import { answerSamples, withSamples } from './readme-sample-blocks.js';

/**
 * `npm run samples:readme`: README.md's sample outputs (its blocks marked `<!-- sample NAME -->`)
 * written again from what the demo world answers now (scripts/readme-sample-blocks.ts).
 */

const path = new URL('../README.md', import.meta.url);
const readme = await readFile(path, 'utf8');
const next = withSamples(readme, await answerSamples());
await writeFile(path, next);
console.log(next === readme ? 'README.md: samples unchanged' : 'README.md: samples written');
