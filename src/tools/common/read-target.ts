import { ApiError } from '../../http/index.js';
import {
  type TargetFor,
  type TargetKind,
  type TargetRefusal,
  targetOf,
} from '../../reputation/index.js';

/** What every tool's reading of a target takes from the deployment. */
export interface TargetDeps {
  /** DNS_KNOWN_ZONES: the only zones the DNS knows, in a closed world (`npm run demo`). */
  knownZones?: readonly string[];
}

/** The tool that checks each kind of target, and its route under the base path. */
const checkOf: Record<TargetKind, { tool: string; route: string }> = {
  ip: { tool: 'the IP tool', route: 'POST /ip/v1' },
  domain: { tool: 'the domain tool', route: 'POST /domain/v1' },
  mail: { tool: 'the mail tool', route: 'POST /mail/v1' },
  pool: { tool: 'the pool tool', route: 'POST /pool/v1/discover' },
};

/**
 * A refused target as a tool answers it, 400 `invalid_target`: the reason, and for a text meant
 * for another kind of check, the tool and route that take it (`8.8.8.8 is an IP address, not a
 * domain name: the IP tool checks 8.8.8.8 (POST /ip/v1)`).
 */
export function targetRefused({ reason, use }: TargetRefusal): ApiError {
  if (use === undefined) return new ApiError('invalid_target', reason);
  const { tool, route } = checkOf[use.kind];
  const what = use.input ?? 'its addresses one at a time';
  return new ApiError('invalid_target', `${reason}: ${tool} checks ${what} (${route})`);
}

/**
 * The target of a check of `kind` that `text` names (`targetOf`), or its refusal thrown as the
 * API answers it: what every tool's request reader asks before any quota is read.
 */
export function readTarget<K extends TargetKind>(
  kind: K,
  text: string,
  deps: TargetDeps,
): { target: TargetFor<K>; text: string } {
  const read = targetOf(kind, text, deps.knownZones ? { knownZones: deps.knownZones } : {});
  if (!read.ok) throw targetRefused(read);
  return read;
}
