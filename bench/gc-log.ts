/**
 * Reads `--trace-gc` lines (`[pid:0xisolate]  1234 ms: Mark-Compact 67.8 (96.7) -> 47.8 (99.2) MB,
 * ...`): the heap left after each full GC, per isolate (tsx's loader thread has one of its own).
 */
export class FullGcLog {
  readonly #byIsolate = new Map<string, { last: number; max: number; fullGcs: number }>();
  read(line: string): void {
    const match = /^\[\d+:(0x[0-9a-f]+)\].*Mark-Compact[^>]*-> ([\d.]+) \(/.exec(line);
    if (!match) return;
    const [, isolate = '', after = ''] = match;
    const entry = this.#byIsolate.get(isolate) ?? { last: 0, max: 0, fullGcs: 0 };
    entry.last = Number(after);
    entry.max = Math.max(entry.max, entry.last);
    entry.fullGcs++;
    this.#byIsolate.set(isolate, entry);
  }
  /** The isolate with the largest heap: the service's main thread. */
  mainIsolate() {
    return [...this.#byIsolate.values()].sort((a, b) => b.max - a.max)[0];
  }
}
