import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/layout.md's table, checked on the source: which folders exist, what each may import, that
 * code outside a folder goes through its face (index.ts), that only the runtime adapters and
 * entry points touch what ties code to Node or Workers, and how long a file may be. The table and
 * the "Sizes" section are the one description of the layout; this file holds no list of folders
 * and no exceptions of its own.
 */

const root = fileURLToPath(new URL('../', import.meta.url));
const src = join(root, 'src');

/** Where code may be bound to a runtime: the adapters and the entry points (docs/DESIGN.md). */
const runtimeAdapters = [/^node\//, /^workers\//, /^server\.ts$/, /^worker\.ts$/];

/** Modules that exist on one runtime only: Node's built-ins and native packages, Workers' own. */
const runtimeBoundPackages = [
  'better-sqlite3',
  'ioredis',
  'sharp',
  '@resvg/resvg-js',
  '@hono/node-server',
  // prom-client reads the process (its default metrics, node:cluster): Node's only.
  'prom-client',
  '@hono/prometheus',
  // The reports' mail doors: servers and clients on node:net and node:tls.
  'smtp-server',
  'imapflow',
];
/**
 * A bare built-in name is Node's module as much as its `node:` form. `buffer` is the exception the
 * rule itself makes: dns-packet's Buffer, imported by name, which Workers' `nodejs_compat` also
 * provides (docs/edge.md); the global `Buffer` stays forbidden.
 */
const bareBuiltins = new Set(builtinModules.filter((name) => name !== 'buffer'));

function isRuntimeBound(specifier: string): boolean {
  if (specifier.startsWith('node:') || specifier.startsWith('cloudflare:')) return true;
  const bare = specifier.split('/')[0] ?? specifier;
  if (bareBuiltins.has(bare)) return true;
  return runtimeBoundPackages.some(
    (name) => specifier === name || specifier.startsWith(`${name}/`),
  );
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The code of a file without its comments, so that prose may name what code may not use. */
function codeOf(file: string): string {
  return readFileSync(join(src, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** Every module a file names: static and dynamic imports, re-exports, require. */
function specifiersOf(file: string): string[] {
  const code = codeOf(file);
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1]!));
}

/** The source file (relative to src/) a relative specifier names, if it names one. */
function sourceTarget(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = posix.normalize(posix.join(posix.dirname(file), specifier));
  const asSource = target.replace(/\.js$/, '.ts');
  return files.includes(asSource) ? asSource : undefined;
}

const files = sourceFiles(src).map((path) => relative(src, path).split('\\').join('/'));

interface LayoutRow {
  /** `src/` for the root, `src/reputation/lists/` for a folder, `src/server.ts` for an entry point. */
  unit: string;
  mayImport: string[];
}

/** The table of docs/layout.md, in its order (the layer order, top to bottom). */
function readLayout(): LayoutRow[] {
  const text = readFileSync(join(root, 'docs/layout.md'), 'utf8');
  return text
    .split('\n')
    .filter((line) => /^\|\s*`src\//.test(line))
    .map((line) => {
      const cells = line.split('|').map((cell) => cell.trim());
      const unit = /^`([^`]+)`$/.exec(cells[1] ?? '')?.[1] ?? '';
      const mayImport = [...(cells[3] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
      return { unit, mayImport };
    });
}

const layout = readLayout();
const units = layout.map((row) => row.unit);

/** The table row a file belongs to: its entry point's own row, or its folder's. */
function unitOf(file: string): string {
  if (units.includes(`src/${file}`)) return `src/${file}`;
  const folder = posix.dirname(file);
  return folder === '.' ? 'src/' : `src/${folder}/`;
}

/**
 * Whether `target` lies behind the face of a folder `file` is not in: below the folder both share,
 * the target must be a file of that folder or the index.ts of one of its folders.
 */
function behindAFace(file: string, target: string): boolean {
  const fromFolder = posix.dirname(file).split('/');
  const parts = target.split('/');
  let shared = 0;
  while (shared < parts.length - 1 && fromFolder[shared] === parts[shared]) shared++;
  const below = parts.slice(shared);
  return below.length > 2 || (below.length === 2 && below[1] !== 'index.ts');
}

const imports = files.flatMap((file) =>
  specifiersOf(file).flatMap((specifier) => {
    const target = sourceTarget(file, specifier);
    return target ? [{ file, target }] : [];
  }),
);

const core = files.filter((file) => !runtimeAdapters.some((adapter) => adapter.test(file)));

describe('the core', () => {
  it('is most of the source', () => {
    expect(core.length).toBeGreaterThan(100);
    expect(core).toContain('app.ts');
    expect(core).toContain('reputation/lists/zones.ts');
  });

  it.each(core)(
    '%s imports no runtime-bound module and reads neither process nor the global Buffer',
    (file) => {
      expect(specifiersOf(file).filter(isRuntimeBound)).toEqual([]);
      const code = codeOf(file);
      expect(code).not.toMatch(/\bprocess\./);
      if (/\bBuffer\b/.test(code)) expect(code).toMatch(/import \{ Buffer \} from 'buffer';/);
    },
  );

  it('reads no file at run time: the zone list and the fonts come as data or through the platform', () => {
    for (const file of core) {
      expect(codeOf(file), file).not.toMatch(/\breadFile|\bfs\b|import\.meta\.url/);
    }
  });
});

describe('docs/layout.md', () => {
  it('has a row for every folder of src/ and its entry points, and none for anything else', () => {
    const present = [...new Set(files.map(unitOf))].sort();
    expect([...units].sort()).toEqual(present);
    expect(new Set(units).size).toBe(units.length);
  });

  it.each(layout)('lets $unit import only rows below it', ({ unit, mayImport }) => {
    const below = units.slice(units.indexOf(unit) + 1);
    expect(mayImport.filter((name) => !below.includes(name))).toEqual([]);
  });
});

describe('the folders of src/', () => {
  const folders = [...new Set(files.map((file) => posix.dirname(file)))];

  it.each(folders)('%s holds at most 20 source files', (folder) => {
    expect(files.filter((file) => posix.dirname(file) === folder).length).toBeLessThanOrEqual(20);
  });

  it.each(files)('%s imports only what its row of docs/layout.md allows', (file) => {
    const allowed = layout.find((row) => row.unit === unitOf(file))?.mayImport ?? [];
    const crossings = imports
      .filter((edge) => edge.file === file && unitOf(edge.target) !== unitOf(file))
      .map((edge) => unitOf(edge.target));
    expect(crossings.filter((unit) => !allowed.includes(unit))).toEqual([]);
  });

  it.each(files)('%s imports other folders only through their faces', (file) => {
    const behind = imports
      .filter((edge) => edge.file === file && behindAFace(file, edge.target))
      .map((edge) => edge.target);
    expect(behind).toEqual([]);
  });
});

/** The longest a file of src/ may be, and a face of a folder of src/tools/ (docs/layout.md, "Sizes"). */
const maxLines = 400;
const maxToolFaceLines = 60;

function lineCount(file: string): number {
  const text = readFileSync(join(src, file), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

interface SizeException {
  /** The heading it is listed under: "Exceptions", or "Being split" while a split is under way. */
  heading: string;
  /** A path from the root; `*` stands for any name within one folder. */
  pattern: string;
}

/** The items of docs/layout.md's "Sizes" section: each starts with a path in a code span. */
function readSizeExceptions(text: string): SizeException[] {
  const from = text.indexOf('\n## Sizes\n');
  if (from < 0) return [];
  const next = text.indexOf('\n## ', from + 1);
  const section = text.slice(from, next < 0 ? undefined : next);
  const exceptions: SizeException[] = [];
  let heading = '';
  for (const line of section.split('\n')) {
    const title = /^### (.+)$/.exec(line);
    if (title) heading = title[1]!.trim();
    const item = /^- `([^`]+)`/.exec(line);
    if (item && heading !== '') exceptions.push({ heading, pattern: item[1]! });
  }
  return exceptions;
}

/** Whether a pattern of the list names a file of src/ (relative to src/). */
function namesFile(pattern: string, file: string): boolean {
  const expression = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');
  return new RegExp(`^${expression}$`).test(`src/${file}`);
}

const sizeExceptions = readSizeExceptions(readFileSync(join(root, 'docs/layout.md'), 'utf8'));
const lengths = new Map(files.map((file) => [file, lineCount(file)]));

describe('the sizes of docs/layout.md', () => {
  it(`lets no file of src/ pass ${maxLines} lines but those its "Sizes" names`, () => {
    const oversized = files
      .filter((file) => lengths.get(file)! > maxLines)
      .filter((file) => !sizeExceptions.some(({ pattern }) => namesFile(pattern, file)))
      .map(
        (file) =>
          `src/${file} has ${lengths.get(file)} lines: split it by job, or name it and say why ` +
          'under "Sizes" in docs/layout.md',
      );
    expect(oversized).toEqual([]);
  });

  it('names no exception that no longer has a file over the limit', () => {
    const stale = sizeExceptions
      .filter(({ pattern }) =>
        files.every((file) => !namesFile(pattern, file) || lengths.get(file)! <= maxLines),
      )
      .map(
        ({ heading, pattern }) =>
          `docs/layout.md, "${heading}": ${pattern} names no file over ${maxLines} lines: delete its item`,
      );
    expect(stale).toEqual([]);
  });

  const toolFaces = files.filter((file) => /^tools\/[^/]+\/index\.ts$/.test(file));

  it.each(toolFaces)(`keeps %s, a face of src/tools/, within ${maxToolFaceLines} lines`, (file) => {
    expect(
      lengths.get(file),
      `src/${file}: move what it defines into files beside it`,
    ).toBeLessThanOrEqual(maxToolFaceLines);
  });

  it('reads the exceptions and their headings from the section', () => {
    expect(sizeExceptions).toContainEqual({ heading: 'Exceptions', pattern: 'src/i18n/en.ts' });
    expect(toolFaces).toEqual(expect.arrayContaining(['tools/ip/index.ts', 'tools/mail/index.ts']));
    const sample = [
      '## Sizes',
      '- `src/ignored.ts`: before any heading',
      '### Exceptions',
      '- `src/i18n/*.ts`: a catalogue',
      '## Commands',
      '- `src/after.ts`: another section',
    ].join('\n');
    expect(readSizeExceptions(`\n${sample}\n`)).toEqual([
      { heading: 'Exceptions', pattern: 'src/i18n/*.ts' },
    ]);
    expect(namesFile('src/i18n/*.ts', 'i18n/en.ts')).toBe(true);
    expect(namesFile('src/i18n/*.ts', 'i18n/deep/en.ts')).toBe(false);
    expect(namesFile('src/config.ts', 'config.ts')).toBe(true);
    expect(namesFile('src/config.ts', 'configXts')).toBe(false);
  });
});

describe('the reading of the tree', () => {
  it('finds the imports of a file, its re-exports and its dynamic imports', () => {
    expect(imports).toContainEqual({ file: 'app.ts', target: 'tools/index.ts' });
    expect(imports).toContainEqual({
      file: 'reputation/index.ts',
      target: 'reputation/lists/index.ts',
    });
    expect(isRuntimeBound('node:dns')).toBe(true);
    expect(isRuntimeBound('worker_threads')).toBe(true);
    expect(isRuntimeBound('cloudflare:workers')).toBe(true);
    expect(isRuntimeBound('@resvg/resvg-js')).toBe(true);
    expect(isRuntimeBound('@resvg/resvg-wasm')).toBe(false);
    expect(isRuntimeBound('buffer')).toBe(false);
  });

  it('tells a face from a file behind it', () => {
    expect(behindAFace('app.ts', 'reputation/index.ts')).toBe(false);
    expect(behindAFace('app.ts', 'reputation/lists/index.ts')).toBe(true);
    expect(behindAFace('tools/ip.ts', 'reputation/lists/zones.ts')).toBe(true);
    expect(behindAFace('reputation/checks/ip-check.ts', 'reputation/lists/index.ts')).toBe(false);
    expect(behindAFace('reputation/checks/ip-check.ts', 'reputation/checks/rdns.ts')).toBe(false);
    expect(behindAFace('node/platform.ts', 'platform.ts')).toBe(false);
  });
});
