import { ApiError } from '../../http/index.js';
import type { TargetFor } from '../../reputation/index.js';
import { firstNonEmpty } from './aliases.js';
import { readTarget, type TargetDeps } from './read-target.js';

/**
 * The sending domain a request names in `domainFields` (`domain`, alias `target`), as the domain
 * and mail tools read it: a 400 `invalid_request` when neither is given, `invalid_target` when it
 * is no public domain name, saying which tool takes it when it is meant for another (an address).
 */
export function requestedDomain(
  body: { domain?: string | undefined; target?: string | undefined },
  kind: 'domain' | 'mail',
  deps: TargetDeps,
): TargetFor<'domain'> {
  const text = firstNonEmpty(body.domain, body.target);
  if (text === undefined)
    throw new ApiError('invalid_request', 'domain is required (alias target)');
  return readTarget(kind, text, deps).target;
}
