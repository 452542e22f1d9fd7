import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/DESIGN.md's layer rule, checked on the source: only the runtime entry points and their
 * adapters touch `node:` modules, `process` or Node's global `Buffer`; the core (reputation, tools,
 * http, share, dns, store, the app and its services) runs on Node and on Workers alike.
 */

const src = fileURLToPath(new URL('../src/', import.meta.url));

/** The entry points and adapters: the Node server, its processes and files, and the Worker. */
const adapters = [
  /^server\.ts$/,
  /^cluster\.ts$/,
  /^worker\.ts$/,
  /^node\//,
  /^workers\//,
  /^dns\/node-transport\.ts$/,
  /^store\/(sqlite|redis)\.ts$/,
];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The code of a file without its comments, so that prose may name what code may not use. */
function codeOf(path: string): string {
  return readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

const core = sourceFiles(src)
  .map((path) => relative(src, path))
  .filter((file) => !adapters.some((adapter) => adapter.test(file)));

describe('the core', () => {
  it('is most of the source', () => {
    expect(core.length).toBeGreaterThan(60);
    expect(core).toContain('app.ts');
    expect(core).toContain('reputation/zones.ts');
  });

  it.each(core)(
    '%s imports no node: module and reads neither process nor the global Buffer',
    (file) => {
      const code = codeOf(join(src, file));
      expect(code).not.toMatch(/from ['"]node:|import\(['"]node:|require\(['"]node:/);
      expect(code).not.toMatch(/\bprocess\./);
      // `Buffer` only as imported from `buffer` (dns-packet's dependency, src/dns/wire.ts).
      if (/\bBuffer\b/.test(code)) expect(code).toMatch(/import \{ Buffer \} from 'buffer';/);
    },
  );

  it('reads no file at run time: the zone list and the fonts come as data or through the platform', () => {
    for (const file of core) {
      expect(codeOf(join(src, file)), file).not.toMatch(/\breadFile|\bfs\b|import\.meta\.url/);
    }
  });
});
