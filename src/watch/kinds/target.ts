import {
  type TargetFor,
  type TargetKind,
  type TargetOptions,
  type TargetRefusal,
  targetOf,
} from '../../reputation/index.js';

/**
 * A watch's target as its kind's tool reads it (`targetOf`), refused as the API refuses one. The
 * route reads it before any quota is taken, the engine before it keeps a watch, and each re-check
 * before it asks.
 */
export type WatchTargetReading<K extends TargetKind = TargetKind> =
  | { ok: true; target: TargetFor<K>; text: string }
  | { ok: false; error: 'invalid_target'; reason: string };

/**
 * A refusal in a watch's words: a text meant for another kind says the kind to watch it with
 * (`8.8.8.8 is an IP address, not a domain name: watch 8.8.8.8 with kind ip`), as the tools name
 * their route (src/tools/common/read-target.ts).
 */
function watchReason({ reason, use }: TargetRefusal): string {
  if (use === undefined) return reason;
  const what = use.input ?? 'one of its addresses at a time';
  return `${reason}: watch ${what} with kind ${use.kind}`;
}

export function readWatchTarget<K extends TargetKind>(
  kind: K,
  input: string,
  options: TargetOptions = {},
): WatchTargetReading<K> {
  const read = targetOf(kind, input, options);
  return read.ok ? read : { ok: false, error: 'invalid_target', reason: watchReason(read) };
}
