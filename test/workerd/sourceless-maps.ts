import { access, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Plugin } from 'vitest/config';

/**
 * The workerd project bundles the Worker's dependencies through vite, which reads each file's
 * source map and warns once per run for a map whose sources are missing. standardwebhooks 1.1.1
 * publishes `dist/*.js.map` naming `../src/*.ts`, which its package leaves out, so every run
 * printed "Sourcemap for .../standardwebhooks/dist/index.js points to missing source files". A
 * map without its sources maps a stack trace to nothing, so such a dependency file is loaded
 * without its map: only a file of `node_modules/` whose map names a source that is neither
 * shipped nor embedded (`sourcesContent`); every other map is read as before.
 */

interface SourceMap {
  sourceRoot?: string;
  sources?: (string | null)[];
  sourcesContent?: (string | null)[];
}

/** A trailing `//# sourceMappingURL=` comment that names a file (not an inline `data:` map). */
const mapComment = /\n\/\/# sourceMappingURL=(?!data:)(\S+)\s*$/;

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function namesMissingSources(mapPath: string): Promise<boolean> {
  const text = await readFile(mapPath, 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  const map = JSON.parse(text) as SourceMap;
  const root = resolve(dirname(mapPath), map.sourceRoot ?? '');
  const present = await Promise.all(
    (map.sources ?? []).map(
      (source, index) =>
        source === null || map.sourcesContent?.[index] != null || exists(resolve(root, source)),
    ),
  );
  return present.includes(false);
}

export function dropSourcelessMaps(): Plugin {
  return {
    name: 'drop-sourceless-dependency-maps',
    enforce: 'pre',
    async load(id) {
      const file = id.split('?')[0] ?? id;
      if (!file.includes('/node_modules/') || !/\.[cm]?js$/.test(file)) return null;
      const code = await readFile(file, 'utf8').catch(() => undefined);
      const comment = code === undefined ? null : mapComment.exec(code);
      if (code === undefined || comment === null) return null;
      const mapPath = resolve(dirname(file), decodeURI(comment[1] ?? ''));
      return (await namesMissingSources(mapPath)) ? code.slice(0, comment.index) : null;
    },
  };
}
