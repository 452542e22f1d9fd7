import { stat } from 'node:fs/promises';
import { openSqliteStore } from '../src/node/index.js';
import { round } from './stats.js';

/**
 * The SQLite store's file on disk: its size (with the WAL and shared-memory files beside it), and
 * its size once every row has expired and been swept, by opening it with a clock moved past the
 * longest TTL and running the store's own sweep to the end.
 */

async function bytesOf(path: string): Promise<number> {
  return stat(path).then(
    (info) => info.size,
    () => 0,
  );
}

export async function sqliteFileMiB(file: string): Promise<number> {
  const sizes = await Promise.all(
    ['', '-wal', '-shm'].map((suffix) => bytesOf(`${file}${suffix}`)),
  );
  return round(sizes.reduce((sum, size) => sum + size, 0) / 2 ** 20, 2);
}

export async function sweptSqliteFile(
  file: string,
  laterMs: number,
): Promise<{ deleted: number; sweepMs: number; mib: number }> {
  const store = openSqliteStore(file, { now: () => Date.now() + laterMs });
  const started = performance.now();
  const deleted = await store.sweep();
  const sweepMs = round(performance.now() - started);
  await store.close();
  return { deleted, sweepMs, mib: await sqliteFileMiB(file) };
}
