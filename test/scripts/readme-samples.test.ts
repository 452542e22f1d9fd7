import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  answerSamples,
  normalised,
  readmeSamples,
  renderShaped,
  samples,
  withSamples,
  wrapJson,
} from '../../scripts/readme-sample-blocks.js';

/**
 * README.md's sample outputs are what the demo world answers now (scripts/readme-sample-blocks.ts):
 * a change of a result's fields or words that leaves them stale fails here, and
 * `npm run samples:readme` writes them again.
 */

const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');

describe("README.md's sample outputs", () => {
  it('are what the demo world answers now, tokens and times aside', async () => {
    const answered = await answerSamples();
    const shown = readmeSamples(readme);
    expect(Object.keys(shown).sort()).toEqual(Object.keys(samples).sort());
    for (const [name, block] of Object.entries(answered)) {
      expect(normalised(shown[name] ?? ''), `README.md sample ${name}`).toBe(normalised(block));
    }
    // Writing them again changes nothing but tokens and times.
    expect(normalised(withSamples(readme, answered))).toBe(normalised(readme));
  }, 30_000);

  it('elide the members a sample leaves out, one … for each run of them', () => {
    expect(
      renderShaped(
        { kind: 'ip', target: '192.0.2.1', lists: [1, 2], token: 't', from_cache: false },
        { target: true, lists: { first: 1 }, from_cache: true },
      ),
    ).toBe('{…,"target":"192.0.2.1","lists":[1,…],…,"from_cache":false}');
    expect(renderShaped({ a: { b: 1 }, c: [1, 2, 3] }, { a: '…', c: { first: 1, last: 1 } })).toBe(
      '{"a":{…},"c":[1,…,3]}',
    );
  });

  it('wrap after a comma outside strings, within 100 columns', () => {
    const long = JSON.stringify({ summary: `${'a, '.repeat(25)}`, next: 'b'.repeat(30) });
    const lines = wrapJson(long);
    expect(lines.every((line) => line.length <= 100)).toBe(true);
    expect(lines.map((line, i) => (i === 0 ? line : line.slice(1))).join('')).toBe(long);
    // Not inside the summary's string, though it holds commas.
    expect(lines[1]).toMatch(/^ "next":/);
  });
});
