import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Docs that cannot drift: every repository path that README.md and docs/*.md name exists, every
 * relative link and its anchor lands, and the comments of the code name files and doc sections
 * that exist. A file moved or deleted without its references fails here, naming each reference.
 * Comments and docs cite the doc that holds a decision, never the tracker's issue numbers
 * (docs/layout.md).
 */

const root = fileURLToPath(new URL('../', import.meta.url));

/** The repository's files: tracked, or new and not ignored (a file being added counts). */
const files: string[] = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file !== '' && existsSync(join(root, file)));
const fileSet = new Set(files);
const directories = new Set(
  files.flatMap((file) => {
    const parts = file.split('/');
    return parts.slice(1).map((_, index) => parts.slice(0, index + 1).join('/'));
  }),
);
const basenames = new Set(files.map((file) => posix.basename(file)));

/** Some file of the repository has that name, or ends in that relative path. */
function hasFileNamed(name: string): boolean {
  if (!name.includes('/')) return basenames.has(name);
  return files.some((file) => file === name || file.endsWith(`/${name}`));
}

/** A path that the build or a run writes (dist/, generated/): named, never committed. */
function isGenerated(path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: root });
    return true;
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  const clean = path.replace(/\/$/, '');
  if (path.endsWith('/')) return directories.has(clean) || isGenerated(path);
  return fileSet.has(clean) || directories.has(clean) || isGenerated(clean);
}

/** Where the repository's paths start: a path beginning with one of these is checked as is. */
const roots = ['src', 'test', 'fixtures', 'bench', 'scripts', 'assets', 'docs', '.ci'];
const rootedPath = new RegExp(
  `(?<![\\w./@:-])(?:${roots.map((name) => name.replace('.', '\\.')).join('|')})/[\\w./{},@<>…-]*`,
  'g',
);

/** A template or an example, not a path: `src/tools/<name>/`, `{tool}`, `*.ts`, `…`. */
function isTemplate(path: string): boolean {
  return /[<>*…]|\.\.\.|\{[^},]*\}/.test(path);
}

/** `test/tools/{lists,openapi}.test.ts` → both paths, as a shell would expand it. */
function expandBraces(path: string): string[] {
  const match = /\{([^{}]*,[^{}]*)\}/.exec(path);
  if (!match) return [path];
  return match[1]!
    .split(',')
    .flatMap((choice) =>
      expandBraces(
        path.slice(0, match.index) + choice.trim() + path.slice(match.index + match[0].length),
      ),
    );
}

/** The paths a piece of text names from the repository's root, trailing punctuation removed. */
function rootedPaths(text: string): string[] {
  const joined = text.replace(/\{[^{}]*\}/g, (choices) => choices.replace(/\s+/g, ''));
  return [...joined.matchAll(rootedPath)]
    .map((match) => match[0].replace(/[.,]+$/, ''))
    .filter((path) => !isTemplate(path))
    .flatMap(expandBraces)
    .map((path) => path.replace(/#.*$/, ''));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(join(root, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.*)$/gm)) {
    const base = slug(heading!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** What is wrong with a reference to `file#anchor`, or undefined when it lands. */
function brokenAnchor(file: string, anchor: string | undefined): string | undefined {
  if (anchor === undefined || !file.endsWith('.md') || !fileSet.has(file)) return undefined;
  return anchorsOf(file).has(anchor) ? undefined : `no heading #${anchor} in ${file}`;
}

/** README.md and every doc, docs/history/ included: a record's links must land too. */
const docs = ['README.md', ...files.filter((file) => /^docs\/.*\.md$/.test(file))];

/** A doc's text without fenced blocks, and the fenced blocks on their own. */
function splitFences(text: string): { prose: string; fences: string } {
  const fences: string[] = [];
  const prose = text.replace(/^```.*\n([\s\S]*?)^```/gm, (_, body: string) => {
    fences.push(body);
    return '\n'.repeat(body.split('\n').length);
  });
  return { prose, fences: fences.join('\n') };
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** Every broken reference of one doc, as `doc:line reference (why)`. */
function brokenReferencesOf(doc: string, text = readFileSync(join(root, doc), 'utf8')): string[] {
  const { prose, fences } = splitFences(text);
  const problems: string[] = [];
  const report = (index: number, reference: string, why = 'does not exist'): void => {
    problems.push(`${doc}:${lineOf(prose, index)} ${reference} (${why})`);
  };

  // Links and images: relative to the doc's folder; an anchor must be one of the target's headings.
  for (const match of prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
    const target = match[1]!;
    if (/^[a-z]+:/.test(target) || isTemplate(target)) continue;
    const [path = '', anchor] = target.split('#');
    const file = path === '' ? doc : posix.normalize(posix.join(posix.dirname(doc), path));
    if (path !== '' && !exists(file)) report(match.index, target);
    const wrong = brokenAnchor(file, anchor);
    if (wrong) report(match.index, target, wrong);
  }

  // Paths from the root, in code spans and in prose alike (not inside a URL).
  const withoutUrls = prose.replace(/[a-z]+:\/\/\S+/g, (url) => ' '.repeat(url.length));
  for (const match of withoutUrls.matchAll(/(?:[^\s{]|\{[^{}]*\})+/g)) {
    for (const path of rootedPaths(match[0])) {
      if (!exists(path)) report(match.index, path);
    }
    for (const [, file, anchor] of match[0].matchAll(/(docs\/[\w.-]+\.md)#([\w-]+)/g)) {
      const wrong = brokenAnchor(file!, anchor);
      if (wrong) report(match.index, `${file}#${anchor}`, wrong);
    }
  }
  for (const path of rootedPaths(fences.replace(/[a-z]+:\/\/\S+/g, ''))) {
    if (!exists(path)) problems.push(`${doc} (a code block) ${path} (does not exist)`);
  }

  // Names relative to a folder: "`src/dns/` (`concurrency.ts`, `caching.ts`)" are in src/dns/.
  const inGroups: [number, number][] = [];
  for (const group of prose.matchAll(/`((?:[\w.-]+\/)+)`\s*\(([^()]*)\)/g)) {
    const folder = group[1]!;
    inGroups.push([group.index, group.index + group[0].length]);
    for (const name of group[2]!.matchAll(/`([\w./-]+\.(?:ts|md|json|mjs))`/g)) {
      const path = posix.join(folder, name[1]!);
      if (!roots.some((first) => name[1]!.startsWith(`${first}/`)) && !exists(path)) {
        report(group.index, path);
      }
    }
  }

  // Any other file name in a code span: some file of the repository has that name (or ends in
  // that relative path), so a deleted module is caught wherever it is mentioned.
  for (const span of prose.matchAll(/`([^`\n]+)`/g)) {
    const name = span[1]!;
    if (!/^[\w.-]+(?:\/[\w.-]+)*\.(?:ts|md|mjs)$/.test(name)) continue;
    if (roots.some((first) => name.startsWith(`${first}/`))) continue;
    if (inGroups.some(([start, end]) => span.index > start && span.index < end)) continue;
    if (!hasFileNamed(name)) report(span.index, name, 'no file of that name');
  }
  return problems;
}

/** The comments of a source file (a run of `//` lines is one), each with its first line. */
function commentsOf(file: string): { line: number; text: string }[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\w])\/\/.*(?:\n[ \t]*\/\/.*)*/g)].map(
    (match) => ({
      line: lineOf(text, match.index),
      text: match[0],
    }),
  );
}

const codeFiles = files.filter(
  (file) => /^(src|test|fixtures|bench|scripts)\//.test(file) && /\.(ts|mjs|js)$/.test(file),
);

/** A tracker's issue number cited as the reason for something: the word and a number. */
const issueNumber = /\bissues? #?\d+/i;

/**
 * A tracker's issue cited without its number ("as the issue asks", "the issue's targets"), which a
 * reader cannot open either; "the issue of a certificate" is another word.
 */
const issueCited = /\b(?:the|an|this|that|their|each)\s+issues?\b(?!\s+of\b)/i;

/**
 * What a text cites of a tracker's issues, by number or as "the issue"; words in double quotes
 * are mentioned, not cited (this file's comments, docs/layout.md's description of this check).
 */
function citedIssue(text: string): string | undefined {
  const unquoted = text.replace(/"[^"\n]*"/g, '""');
  return (issueNumber.exec(unquoted) ?? issueCited.exec(unquoted))?.[0].replace(/\s+/g, ' ');
}

describe('the docs name what exists', () => {
  it.each(docs)('every path, link and anchor of %s exists', (doc) => {
    expect(brokenReferencesOf(doc)).toEqual([]);
  });

  it('every path and doc section a comment of the code names exists', () => {
    const problems = codeFiles.flatMap((file) =>
      commentsOf(file).flatMap(({ line, text }) => [
        ...rootedPaths(text)
          .filter((path) => !exists(path))
          .map((path) => `${file}:${line} ${path}`),
        // A comment that cites another repository (github.com/...) names that repository's files.
        ...[
          ...(text.includes('github.com/')
            ? []
            : text.matchAll(/(?<![\w./*@}-])(?:[\w-]+\/)*[\w.-]+\.(?:ts|md)\b/g)),
        ]
          .map(([name]) => name)
          .filter((name) => !roots.some((first) => name.startsWith(`${first}/`)))
          .filter((name) => !hasFileNamed(name))
          .map((name) => `${file}:${line} ${name} (no file of that name)`),
        ...[...text.matchAll(/(docs\/[\w.-]+\.md)#([\w-]+)/g)].flatMap(([, doc, anchor]) => {
          const wrong = brokenAnchor(doc!, anchor);
          return wrong ? [`${file}:${line} ${wrong}`] : [];
        }),
      ]),
    );
    expect(problems).toEqual([]);
  });

  it("comments and docs cite the doc that holds a decision, not a tracker's issue", () => {
    const inComments = codeFiles.flatMap((file) =>
      commentsOf(file).flatMap(({ line, text }) => {
        const cited = citedIssue(text);
        return cited === undefined ? [] : [`${file}:${line} ${cited}`];
      }),
    );
    // Whole paragraphs, so that "the" at the end of one line and "issue" on the next are caught.
    const inDocs = docs.flatMap((doc) => {
      const text = readFileSync(join(root, doc), 'utf8');
      return [...text.matchAll(/[^\n](?:.|\n(?!\n))*/g)].flatMap((paragraph) => {
        const cited = citedIssue(paragraph[0]);
        return cited === undefined ? [] : [`${doc}:${lineOf(text, paragraph.index)} ${cited}`];
      });
    });
    expect([...inComments, ...inDocs]).toEqual([]);
  });
});

describe('the index of the docs', () => {
  it('lists every doc of docs/ once, in reading order from the map (layout.md)', () => {
    const index = readFileSync(join(root, 'docs/README.md'), 'utf8');
    const listed = [...index.matchAll(/^\d+\. \[[^\]]*\]\(([^)#]+)\)/gm)].map(([, link]) => link!);
    const linkedBeside = [...index.matchAll(/\]\(([^)#]+\.md)\)/g)].map(([, link]) => link!);
    const documented = docs
      .filter((doc) => doc.startsWith('docs/') && doc !== 'docs/README.md')
      .map((doc) => doc.slice('docs/'.length));
    expect(listed[0]).toBe('layout.md');
    expect(listed.filter((doc, at) => listed.indexOf(doc) !== at)).toEqual([]);
    const missing = documented.filter((doc) => !linkedBeside.includes(doc));
    expect(missing, 'docs/README.md: give each a line in reading order').toEqual([]);
  });

  it('is what README.md points to for the docs', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme.slice(readme.indexOf('## Documentation'))).toContain('(docs/README.md)');
  });
});

describe('docs that quote the code', () => {
  it('docs/registry.md shows the registry as src/tools/registry.ts declares it', () => {
    const declared = /export const tools = (\[[^\]]*\])/.exec(
      readFileSync(join(root, 'src/tools/registry.ts'), 'utf8'),
    );
    const shown = /`tools = (\[[^\]]*\])`/.exec(
      readFileSync(join(root, 'docs/registry.md'), 'utf8'),
    );
    expect(shown?.[1]).toBe(declared?.[1]);
  });

  it("docs/registry.md's table names every field of a tool's definition, and no other", () => {
    const definition = /export interface ToolDefinition[^{]*\{([\s\S]*?)\n\}/.exec(
      readFileSync(join(root, 'src/tools/common/tool.ts'), 'utf8'),
    )![1]!;
    const declared = [...definition.matchAll(/^ {2}(\w+)\??[(:]/gm)].map(([, name]) => name);
    const registry = readFileSync(join(root, 'docs/registry.md'), 'utf8');
    const section = registry.slice(
      registry.indexOf('## What a tool folder declares'),
      registry.indexOf('\n## ', registry.indexOf('## What a tool folder declares') + 1),
    );
    const shown = [...section.matchAll(/^\| `(\w+)` +\|/gm)].map(([, name]) => name);
    expect(declared).toContain('serve');
    expect(shown.sort()).toEqual(declared.sort());
  });
});

describe('the check itself', () => {
  it('finds a moved file, a broken link, a missing anchor and a deleted module', () => {
    const text = [
      'The registry (`src/tools/registry.ts`, [its doc](registry.md#adding-a-tool)) and the',
      'app (src/app.ts) exist; `src/tools/gone.ts`, [a link](missing.md), [a section](registry.md#gone),',
      'the module `vanished-module.ts` and `src/dns/` (`resolver.ts`, `nowhere.ts`) do not.',
    ].join('\n');
    expect(brokenReferencesOf('docs/example.md', text)).toEqual([
      'docs/example.md:2 missing.md (does not exist)',
      'docs/example.md:2 registry.md#gone (no heading #gone in docs/registry.md)',
      'docs/example.md:2 src/tools/gone.ts (does not exist)',
      'docs/example.md:3 src/dns/nowhere.ts (does not exist)',
      'docs/example.md:3 vanished-module.ts (no file of that name)',
    ]);
    expect(docs).toEqual(expect.arrayContaining(['README.md', 'docs/layout.md']));
  });

  it('reads paths as a shell and GitHub would, templates and URLs apart', () => {
    expect(exists('src/tools/')).toBe(true);
    expect(rootedPaths('see `test/tools/{ip,lists}.test.ts`, and src/app.ts.')).toEqual([
      'test/tools/ip.test.ts',
      'test/tools/lists.test.ts',
      'src/app.ts',
    ]);
    expect(rootedPaths('`src/tools/<name>/index.ts`, `/{tool}/v1`, https://x.org/docs/a')).toEqual(
      [],
    );
    expect(brokenAnchor('docs/verdicts.md', 'one-reading-of-a-result')).toBeUndefined();
    expect(brokenAnchor('docs/verdicts.md', 'one-reading')).toMatch(/no heading/);
    expect(citedIssue('the finding of issue 13')).toBe('issue 13');
    expect(citedIssue('cloudflare/workers-sdk#14820')).toBeUndefined();
    expect(citedIssue('alarm, as the issue asks')).toBe('the issue');
    expect(citedIssue("the issue's targets were set at 18 lists")).toBe('the issue');
    expect(citedIssue('taken where the\nissue was silent')).toBe('the issue');
    expect(citedIssue('the issue of a certificate, its issuer')).toBeUndefined();
    expect(citedIssue('the CA issues each certificate')).toBeUndefined();
    expect(citedIssue('zod reads it, and its issues name the variable')).toBeUndefined();
    expect(citedIssue('the check catches "the issue" cited by a doc')).toBeUndefined();
  });
});
