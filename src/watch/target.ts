import { parseHostName, parseTarget, type Target } from '../reputation/index.js';
import type { WatchKind } from './schemas.js';

/**
 * A watch's target as its kind reads it: kind `ip` an address or a host name (as the IP tool
 * reads one), kind `domain` a sending domain (as the domain tool does), kind `mail` a domain (as
 * the mail tool does). The route reads it before
 * any quota is taken, the engine before it keeps a watch, and each re-check before it asks.
 */
export type WatchTargetParse =
  | {
      ok: true;
      target: Target;
      /** How the watch keeps and shows it: the ASCII name, or the address (IPv6 canonical). */
      text: string;
    }
  | { ok: false; error: 'invalid_target'; reason: string };

export function parseWatchTarget(kind: WatchKind, input: string): WatchTargetParse {
  const parsed = kind === 'ip' ? parseTarget(input) : parseHostName(input);
  if (!parsed.ok) return { ok: false, error: 'invalid_target', reason: parsed.reason };
  const { target } = parsed;
  if (kind !== 'ip' && target.kind !== 'domain') {
    return { ok: false, error: 'invalid_target', reason: 'expected a domain name' };
  }
  return { ok: true, target, text: target.kind === 'domain' ? target.name : target.address };
}
