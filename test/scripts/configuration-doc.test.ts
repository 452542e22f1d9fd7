import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { variablesOf } from '../../src/config/index.js';
import {
  command,
  configurationDoc,
  tables,
  withCurrentTable,
} from '../../scripts/configuration-doc.js';

/** docs/configuration.md and the README's table say what the configuration tables say. */

const variables = tables.flatMap(([, table]) => variablesOf(table));
const names = variables.map((entry) => entry.name);

describe('the configuration documentation', () => {
  it('holds the table the configuration tables generate', async () => {
    const document = readFileSync(configurationDoc, 'utf8');
    expect(await withCurrentTable(document), `docs/configuration.md is stale: run ${command}`).toBe(
      document,
    );
  });

  it('names each variable in one table only', () => {
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it("lists in the README's table only variables the service reads, with their defaults", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Configuration'),
      readme.indexOf('## Deployment'),
    );
    const rows = [...section.matchAll(/^\| `([A-Z0-9_]+)` +\|(.*)\|$/gm)].map(
      ([, name, meaning]) => ({
        name: name!,
        // A default the row gives, as `(\`8787\`)` at the end of its meaning.
        shown: /\(`([^`]+)`\)\s*$/.exec(meaning!)?.[1],
      }),
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const { name, shown } of rows) {
      const entry = variables.find((candidate) => candidate.name === name);
      expect(entry, `${name} is no variable of the configuration tables`).toBeDefined();
      if (shown !== undefined) expect(shown, `README's default of ${name}`).toBe(entry!.default);
    }
    expect(section).toContain('(docs/configuration.md)');
  });
});
