import { ApiError } from '../../http/index.js';
import type { Target } from '../../reputation/index.js';
import { firstNonEmpty, readTarget, type TargetDeps } from '../common/index.js';

/** What an IP check request names: the address or host name, and its key in the result cache. */
export interface IpRequest {
  target: Target;
  /** The address (IPv6 in its canonical form) or the ASCII name: every spelling is one request. */
  requestKey: string;
}

/**
 * The request's `target` (alias `q`): a 400 `invalid_request` when neither is given,
 * `invalid_target` when it is no public address or host name, saying which tool takes it when it
 * is meant for another (an e-mail address, a network).
 */
export function readIpRequest(
  body: { target?: string | undefined; q?: string | undefined },
  deps: TargetDeps,
): IpRequest {
  const text = firstNonEmpty(body.target, body.q);
  if (text === undefined) throw new ApiError('invalid_request', 'target is required (alias q)');
  const read = readTarget('ip', text, deps);
  return { target: read.target, requestKey: read.text };
}
