import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { variablesOf } from '../../src/environment.js';
import {
  command,
  configurationDoc,
  tables,
  withCurrentTable,
} from '../../scripts/configuration-doc.js';

/** docs/configuration.md and the README's table say what the configuration tables say. */

const names = tables.flatMap(([, table]) => variablesOf(table).map((entry) => entry.name));

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

  it("lists in the README's table only variables the service reads, and links the full table", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Configuration'),
      readme.indexOf('## Deployment'),
    );
    const listed = [...section.matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((match) => match[1]);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((name) => !names.includes(name!))).toEqual([]);
    expect(section).toContain('(docs/configuration.md)');
  });
});
