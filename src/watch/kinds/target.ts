import { type TargetFor, type TargetKind, targetOf } from '../../reputation/index.js';

/**
 * A watch's target as its kind's tool reads it (`targetOf`), refused as the API refuses one. The
 * route reads it before any quota is taken, the engine before it keeps a watch, and each re-check
 * before it asks.
 */
export type WatchTargetReading<K extends TargetKind = TargetKind> =
  | { ok: true; target: TargetFor<K>; text: string }
  | { ok: false; error: 'invalid_target'; reason: string };

export function readWatchTarget<K extends TargetKind>(
  kind: K,
  input: string,
): WatchTargetReading<K> {
  const read = targetOf(kind, input);
  return read.ok ? read : { ok: false, error: 'invalid_target', reason: read.reason };
}
