import { ApiError } from '../../http/index.js';
import { type TargetFor, targetOf } from '../../reputation/index.js';
import { firstNonEmpty } from './aliases.js';

/**
 * The sending domain a request names in `domainFields` (`domain`, alias `target`), as the domain
 * and mail tools read it: a 400 `invalid_request` when neither is given, `invalid_target` when it
 * is no public domain name (an address is not one).
 */
export function requestedDomain(body: {
  domain?: string | undefined;
  target?: string | undefined;
}): TargetFor<'domain'> {
  const text = firstNonEmpty(body.domain, body.target);
  if (text === undefined)
    throw new ApiError('invalid_request', 'domain is required (alias target)');
  const read = targetOf('domain', text);
  if (!read.ok) throw new ApiError('invalid_target', read.reason);
  return read.target;
}
