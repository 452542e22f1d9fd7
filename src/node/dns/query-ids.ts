import { randomFillSync } from 'node:crypto';

/**
 * Random 16-bit query IDs (RFC 5452 §9.2: unpredictable to an attacker off the path), from the
 * system's cryptographic generator a batch at a time, so a query costs no call into it.
 */
export function createQueryIds(batch = 1024): () => number {
  const ids = new Uint16Array(batch);
  let next = batch;
  return () => {
    if (next === batch) {
      randomFillSync(ids);
      next = 0;
    }
    return ids[next++]!;
  };
}
