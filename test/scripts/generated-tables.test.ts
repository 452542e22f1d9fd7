import { describe, expect, it } from 'vitest';
import { errorRecords } from '../../src/http/index.js';
import { tools } from '../../src/tools/registry.js';
import {
  command,
  documents,
  errorTable,
  generatedFiles,
  readSources,
  registryTools,
  type Route,
  routeRows,
  tokenTools,
  withBlocks,
  wrap,
} from '../../scripts/generated-tables.js';

/**
 * The docs' generated blocks (scripts/generated-tables.ts) say what the code says now: the README's
 * routes and docs/registry.md's tools as the app serves them, docs/results.md's error codes as
 * src/http/errors.ts has them. A route, tool or code added without `npm run docs:tables` fails
 * here, naming the command.
 */

const sources = await readSources();
const { routes } = sources;
const files = await generatedFiles(sources);

describe('the generated blocks of the docs', () => {
  it.each(files)('$path holds what the code gives now', ({ path, text, current }) => {
    expect(current, `${path} is stale: run ${command}`).toBe(text);
  });

  it('cover the README, the registry and the results', () => {
    expect(documents.map(({ path }) => path)).toEqual([
      'README.md',
      'docs/registry.md',
      'docs/results.md',
    ]);
  });
});

/** The (method, path) pairs a table's route rows stand for, `{tool}` expanded. */
function covered(rows: readonly { route: string }[], shared: readonly string[]): string[] {
  return rows.flatMap(({ route }) => {
    const [methods = '', path = ''] = route.split(/ (?=\/)/);
    const paths = path.includes('{tool}')
      ? shared.map((name) => path.replace('{tool}', name))
      : [path];
    return methods.split(', ').flatMap((method) => paths.map((each) => `${method} ${each}`));
  });
}

describe('the route rows', () => {
  const all = routes.map(({ method, path }) => `${method} ${path}`).sort();

  it('stand for every route the app serves, each once', () => {
    expect(all.length).toBeGreaterThan(40);
    expect(covered(routeRows(routes), tokenTools(routes)).sort()).toEqual(all);
  });

  it('write a route once with {tool} only while every token tool serves it', () => {
    const withoutMailStatus = routes.filter(
      (route) => !(route.method === 'GET' && route.path === '/mail/v1/status'),
    );
    const rows = routeRows(withoutMailStatus).map(({ route }) => route);
    expect(rows).not.toContain('GET /{tool}/v1/status');
    expect(rows).toEqual(expect.arrayContaining(['GET /ip/v1/status', 'GET /pool/v1/status']));
    expect(rows).toContain('GET /{tool}/v1/{token}');
    expect(covered(routeRows(withoutMailStatus), tokenTools(routes)).length).toBe(
      withoutMailStatus.length,
    );
  });

  it('list a route outside the tools as it is, beside the rows written with {tool}', () => {
    const digests: Route[] = [
      { method: 'POST', path: '/digest/v1', summary: 'Add a digest' },
      { method: 'GET', path: '/digest/v1/{token}', summary: 'A stored digest' },
    ];
    const rows = routeRows([...routes, ...digests]).map(({ route }) => route);
    expect(rows).toEqual(expect.arrayContaining(['POST /digest/v1', 'GET /digest/v1/{token}']));
    expect(rows).toContain('GET /{tool}/v1/{token}');
  });
});

describe('the tools and the error codes', () => {
  it('count the tools of the registry and list each one with its routes', () => {
    const text = registryTools(sources);
    expect(text).toMatch(new RegExp(`^${tools.length} tools: ${tokenTools(routes).length} keep`));
    for (const tool of tools) expect(text).toContain(`- \`${tool.name}\`: `);
  });

  it('list every error code once, with its status', () => {
    const table = errorTable();
    for (const [code, record] of Object.entries(errorRecords)) {
      expect(table).toContain(`| ${record.status} | \`${code}\` |`);
    }
    expect(table.split('\n')).toHaveLength(Object.keys(errorRecords).length + 2);
  });
});

describe('the generator', () => {
  it('refuses a file without its markers, naming them', async () => {
    await expect(
      withBlocks('docs/example.md', '# Example\n', [{ name: 'errors', render: () => '' }], sources),
    ).rejects.toThrow(/docs\/example.md lacks the markers:\n<!-- The errors below are generated/);
  });

  it('wraps prose at 100 columns, never inside a code span', () => {
    const text = wrap(`- ${'`GET, POST /watch/v1/{id}/email/confirm`, '.repeat(4)}end.`, '  ');
    const lines = text.split('\n');
    expect(lines.every((line) => line.length <= 100)).toBe(true);
    expect(lines.slice(1).every((line) => line.startsWith('  `'))).toBe(true);
    expect(text.replace(/\n {2}/g, ' ')).toBe(
      `- ${'`GET, POST /watch/v1/{id}/email/confirm`, '.repeat(4)}end.`,
    );
  });
});
