import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Sums the self time per function of a V8 .cpuprofile (`node --cpu-prof`), and per package or
 * source file, so the hot spots of a benchmark run read at a glance:
 *
 *   npx tsx bench/experiments/profile-summary.ts /tmp/prof [top=30] [from=<µs>] [per=<count>]
 *
 * Given a directory, it reads the newest main-thread .cpuprofile in it. `from`: only the samples
 * taken after that reading of the monotonic clock, in µs (trickle-ab.ts prints it when a variant
 * is warm: a profile's timestamps are on the same clock). `per`: also each line's µs per that
 * many events (the answers of the rounds). `(idle)` is left out of the total.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

async function newestProfile(path: string): Promise<string> {
  if (!(await stat(path)).isDirectory()) return path;
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread (tsx's loader
  // runs in a worker thread of its own and writes a second, idle profile).
  const files = (await readdir(path)).filter((name) => /\.\d+\.0\.\d+\.cpuprofile$/.test(name));
  const dated = await Promise.all(
    files.map(async (name) => ({ name, mtime: (await stat(join(path, name))).mtimeMs })),
  );
  const newest = dated.sort((a, b) => b.mtime - a.mtime)[0];
  if (!newest) throw new Error(`no .cpuprofile in ${path}`);
  return join(path, newest.name);
}

/** Where a frame's code lives: a package, a file of ours, or the runtime. */
function placeOf(url: string): string {
  if (url === '') return '(runtime)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:')) return url;
  const ours = /\/((?:src|dist|dist-base|bench|test|scripts)\/.*)$/.exec(url)?.[1];
  return ours ?? url;
}

const [path = '/tmp/prof', topText = '30', ...named] = process.argv.slice(2);
const option = (key: string) =>
  named.find((arg) => arg.startsWith(`${key}=`))?.slice(key.length + 1);
const fromUs = Number(option('from') ?? 0);
const per = Number(option('per') ?? 0);
const file = await newestProfile(path);
const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));

// Self time per node from the samples and their time deltas (more exact than hitCount).
const selfUs = new Map<number, number>();
const samples = profile.samples ?? [];
const deltas = profile.timeDeltas ?? [];
let at = profile.startTime;
for (let index = 0; index < samples.length; index++) {
  const id = samples[index]!;
  at += deltas[index] ?? 0;
  if (at < fromUs || byId.get(id)!.callFrame.functionName === '(idle)') continue;
  // A sample's delta is the time until the next one.
  const delta = deltas[index + 1] ?? 0;
  selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, delta));
}
const totalUs = [...selfUs.values()].reduce((sum, us) => sum + us, 0);

const byFunction = new Map<string, number>();
const byPlace = new Map<string, number>();
for (const [id, us] of selfUs) {
  const frame = byId.get(id)!.callFrame;
  const place = placeOf(frame.url);
  const name = `${frame.functionName || '(anonymous)'}  ${place}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  byPlace.set(place, (byPlace.get(place) ?? 0) + us);
}

// Total (inclusive) time per function: each sample's time counts once for every distinct function
// on its stack, found by walking from the root.
const parentOf = new Map<number, number>();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parentOf.set(child, node.id);
const keyOf = (node: ProfileNode) => {
  const frame = node.callFrame;
  return `${frame.functionName || '(anonymous)'}  ${placeOf(frame.url)}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
};
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const node = byId.get(at)!;
    if (node.callFrame.url === '') continue;
    const key = keyOf(node);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
}

const top = Number(topText);
const perEvent = (us: number) => (per > 0 ? ` ${(us / per).toFixed(2).padStart(7)} µs` : '');
const line = (label: string, us: number) =>
  `${(us / 1000).toFixed(0).padStart(8)} ms ${((us / totalUs) * 100).toFixed(1).padStart(5)}%${perEvent(us)}  ${label}`;
console.log(
  `${file}: ${(totalUs / 1000).toFixed(0)} ms sampled, not idle${per > 0 ? `, ${perEvent(totalUs).trim()} per event` : ''}`,
);
console.log('\nself time by function:');
for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(line(name, us));
}
console.log('\nself time by package / file:');
for (const [place, us] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(line(place, us));
}
console.log('\ntotal (inclusive) time, functions of src/:');
for (const [name, us] of [...inclusive]
  .filter(([name]) => / (?:src|dist)\//.test(name))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top)) {
  console.log(line(name, us));
}
