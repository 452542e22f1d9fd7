import { readFile } from 'node:fs/promises';
import { format, resolveConfig } from 'prettier';
import { createApp } from '../src/app.js';
import { errorRecords } from '../src/http/index.js';
import { readConfig } from '../src/node/config.js';
import { createNodeServices } from '../src/node/services.js';
import { tools } from '../src/tools/registry.js';

/**
 * The docs' tables that say what the code says, generated from it so they cannot drift: the
 * README's routes and docs/registry.md's tools from the routes the app serves (its OpenAPI
 * document) and the registry (src/tools/registry.ts), docs/results.md's error codes from
 * `errorRecords` (src/http/errors.ts). Each is a block between two markers naming the command;
 * `npm run docs:tables` writes them all (and docs/configuration.md's table, which
 * scripts/configuration-doc.ts generates), and test/scripts/generated-tables.test.ts fails while
 * one is stale.
 */

export const command = 'npm run docs:tables';

/** A route the app serves, as its OpenAPI document names it (HEAD left out: every GET has one). */
export interface Route {
  method: string;
  /** Relative to BASE_PATH, in OpenAPI form: `/ip/v1/share/{token}`. */
  path: string;
  summary: string;
}

/** What the tables are generated from. */
export interface Sources {
  routes: Route[];
}

/** The routes of the app as the Node service builds it, read from its OpenAPI document. */
export async function readSources(): Promise<Sources> {
  // A resolver on 127.0.0.1 that nobody answers: the routes need no DNS, and nothing leaves the machine.
  const config = readConfig({
    DNS_SERVERS: '127.0.0.1:9',
    STORE_URL: 'memory:',
    LOG_LEVEL: 'silent',
  });
  const services = await createNodeServices(config, () => {});
  try {
    const app = createApp({ ...services, config, peerAddress: () => '192.0.2.1' });
    const response = await app.request(`${config.basePath}/openapi.json`);
    const document = (await response.json()) as {
      paths: Record<string, Record<string, { summary?: string }>>;
    };
    return {
      routes: Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([method]) => method !== 'head')
          .map(([method, operation]) => ({
            method: method.toUpperCase(),
            path,
            summary: operation.summary ?? '',
          })),
      ),
    };
  } finally {
    await services.close();
  }
}

const code = (text: string) => `\`${text}\``;
const cell = (text: string) => text.replaceAll('|', '\\|');
const table = (head: string[], rows: string[][]) =>
  [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');

/**
 * Prose wrapped at 100 columns as the docs are, never inside a code span; later lines indented by
 * `indent` (a list item's continuation).
 */
export function wrap(text: string, indent = ''): string {
  const atoms = text.match(/(?:`[^`]*`|[^\s`])+/g) ?? [];
  const lines: string[] = [];
  let line = '';
  for (const atom of atoms) {
    const next = line === '' ? atom : `${line} ${atom}`;
    if (next.length > 100 && line.trim() !== '') {
      lines.push(line);
      line = `${indent}${atom}`;
    } else line = next;
  }
  return [...lines, line].join('\n');
}

/** Names joined as prose: `a`, `b` or `c`. */
function spoken(names: readonly string[], last = 'or'): string {
  const quoted = names.map(code);
  return quoted.length < 2
    ? (quoted[0] ?? '')
    : `${quoted.slice(0, -1).join(', ')} ${last} ${quoted.at(-1)}`;
}

const methodOrder = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const toolNames: readonly string[] = tools.map((tool) => tool.name);

/** The tool a path belongs to, and the rest of it: `/ip/v1/status` → `ip`, `/status`. */
function toolOf(path: string): { tool: string; rest: string } | undefined {
  const match = /^\/([^/]+)\/v1(\/.*)?$/.exec(path);
  if (!match || !toolNames.includes(match[1]!)) return undefined;
  return { tool: match[1]!, rest: match[2] ?? '' };
}

/** The tools that keep each result under a token: those with `GET /{name}/v1/{token}`. */
export function tokenTools(routes: readonly Route[]): string[] {
  return toolNames.filter((name) =>
    routes.some((route) => route.method === 'GET' && route.path === `/${name}/v1/{token}`),
  );
}

interface RouteRow {
  /** `GET, POST /watch/v1/{id}/email/confirm`: the methods of one path, in a fixed order. */
  route: string;
  summary: string;
}

/** One row per path, its methods together; HEAD is every GET's. */
function rowsByPath(routes: readonly Route[]): RouteRow[] {
  const paths = [...new Set(routes.map((route) => route.path))];
  return paths.map((path) => {
    const here = routes
      .filter((route) => route.path === path)
      .sort((a, b) => methodOrder.indexOf(a.method) - methodOrder.indexOf(b.method));
    return {
      route: `${here.map((route) => route.method).join(', ')} ${path}`,
      summary: here[0]!.summary,
    };
  });
}

/**
 * The README's routes: those outside the tools, then those every token tool serves alike, written
 * once with `{tool}`, then each tool's own in the registry's order.
 */
export function routeRows(routes: readonly Route[]): RouteRow[] {
  const shared = tokenTools(routes);
  const outside = routes.filter((route) => !toolOf(route.path));
  const ofTools = routes.filter((route) => toolOf(route.path));
  /** Whether every token tool, and no other tool, serves this method and rest of a path. */
  const servedAlike = (route: Route): boolean => {
    const { rest } = toolOf(route.path)!;
    const servers = toolNames.filter((name) =>
      ofTools.some((other) => other.method === route.method && other.path === `/${name}/v1${rest}`),
    );
    return (
      shared.length > 1 &&
      servers.length === shared.length &&
      servers.every((name) => shared.includes(name))
    );
  };
  const alike = ofTools
    .filter((route) => toolOf(route.path)!.tool === shared[0] && servedAlike(route))
    .map((route) => ({ ...route, path: `/{tool}/v1${toolOf(route.path)!.rest}` }));
  const own = toolNames.flatMap((name) =>
    ofTools.filter((route) => toolOf(route.path)!.tool === name && !servedAlike(route)),
  );
  const byPath = (a: Route, b: Route) => a.path.localeCompare(b.path);
  return [...rowsByPath([...outside].sort(byPath)), ...rowsByPath(alike), ...rowsByPath(own)];
}

/** The cells of a Markdown table's body rows, by the text of their first cell. */
function cellsByFirst(block: string): Map<string, string[]> {
  const rows = block
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((text) => text.trim().replaceAll('\\|', '|')),
    );
  return new Map(rows.map(([first = '', ...rest]) => [first, rest]));
}

/**
 * README's "Routes" table: the route from the code, the example as the README writes it, kept
 * from the table it replaces (a new route's is its operation's summary until someone writes one).
 */
export function readmeRoutes(sources: Sources, current: string): string {
  const examples = cellsByFirst(current);
  const shared = tokenTools(sources.routes);
  const rows = routeRows(sources.routes).map(({ route, summary }) => [
    code(route),
    examples.get(code(route))?.[0] ?? summary,
  ]);
  return [
    wrap(`\`{tool}\` is ${spoken(shared)}, the tools that keep each result under a token.`),
    '',
    table(['Route', 'Example'], rows),
  ].join('\n');
}

/** docs/registry.md: how many tools the registry holds, and each one's routes. */
export function registryTools(sources: Sources): string {
  const shared = tokenTools(sources.routes);
  const others = toolNames.filter((name) => !shared.includes(name));
  const ownRoutes =
    others.length === 0
      ? ''
      : `, and ${spoken(others, 'and')} ${others.length === 1 ? 'serves its' : 'serve their'} own routes`;
  const items = toolNames.map((name) => {
    const served = rowsByPath(sources.routes.filter((route) => toolOf(route.path)?.tool === name));
    return wrap(`- ${code(name)}: ${served.map(({ route }) => code(route)).join(', ')}.`, '  ');
  });
  return [
    wrap(
      `${tools.length} tools: ${shared.length} keep each check's result under a token ` +
        `(${spoken(shared, 'and')}: a check answered once, with its badge, card and share page)` +
        `${ownRoutes}. Their routes, as the app serves them (a GET answers HEAD too):`,
    ),
    '',
    ...items,
  ].join('\n');
}

/** docs/results.md's "Errors": every code of `errorRecords`, by status. */
export function errorTable(): string {
  const rows = Object.entries(errorRecords)
    .map(([name, record]) => ({ name, ...record }))
    .sort((a, b) => a.status - b.status)
    .map((record) => [
      String(record.status),
      code(record.name),
      record.meaning,
      'retryAfterS' in record ? String(record.retryAfterS) : '',
    ]);
  return table(['Status', 'Code', 'Meaning', 'Retry-After (s)'], rows);
}

/** A file's generated block: what it is named, and what it holds now given its current text. */
interface Block {
  name: string;
  render(sources: Sources, current: string): string;
}

/** Every file with generated blocks, and its blocks. */
export const documents: { path: string; blocks: Block[] }[] = [
  { path: 'README.md', blocks: [{ name: 'routes', render: readmeRoutes }] },
  { path: 'docs/registry.md', blocks: [{ name: 'tools', render: registryTools }] },
  { path: 'docs/results.md', blocks: [{ name: 'errors', render: () => errorTable() }] },
];

const startOf = (name: string) =>
  `<!-- The ${name} below are generated from the code: run \`${command}\`. -->`;
const endOf = (name: string) => `<!-- End of the generated ${name}. -->`;

/** The file's text with each block rewritten, formatted as the repository formats Markdown. */
export async function withBlocks(
  path: string,
  text: string,
  blocks: readonly Block[],
  sources: Sources,
): Promise<string> {
  let next = text;
  for (const { name, render } of blocks) {
    const start = startOf(name);
    const end = endOf(name);
    const from = next.indexOf(start);
    const to = next.indexOf(end);
    if (from < 0 || to < from) throw new Error(`${path} lacks the markers:\n${start}\n${end}`);
    const current = next.slice(from + start.length, to);
    next = `${next.slice(0, from + start.length)}\n\n${render(sources, current)}\n\n${next.slice(to)}`;
  }
  const url = new URL(`../${path}`, import.meta.url);
  return format(next, { ...(await resolveConfig(url)), parser: 'markdown' });
}

/** Every file with generated blocks: its path, its text, and the text its blocks should give. */
export async function generatedFiles(
  sources: Sources,
): Promise<{ path: string; text: string; current: string }[]> {
  return Promise.all(
    documents.map(async ({ path, blocks }) => {
      const text = await readFile(new URL(`../${path}`, import.meta.url), 'utf8');
      return { path, text, current: await withBlocks(path, text, blocks, sources) };
    }),
  );
}
