import {
  checkMail,
  isCapacityShortage,
  type MailCheckDeps,
  type MailCheckResult,
  notReady,
} from '../../reputation/index.js';
import type { TargetDeps } from '../common/index.js';
import { readMailRequest } from './request.js';

type ReadinessDeps = Parameters<typeof notReady>[0];

/**
 * A mail check's request read and run (POST /mail/v1): its domain through targetOf, the
 * operator's results kept apart, and, while no list is proven, the sender addresses' listings
 * left out saying why (its own records and probes need no list).
 */
export function mailPrepare(
  deps: TargetDeps & ReadinessDeps,
  checkDeps: MailCheckDeps,
  isOperator: (bearer: string | undefined) => Promise<boolean>,
) {
  return async (
    body: Parameters<typeof readMailRequest>[0],
    sender: { subject: string; bearer: string | undefined },
  ) => {
    const { domain, selectors, requestKey } = readMailRequest(body, deps);
    const operator = await isOperator(sender.bearer);
    const lists = notReady(deps);
    return {
      // The operator's results may show inside servers: never served to anyone else.
      requestKey: operator ? `${requestKey} #operator` : requestKey,
      // The caller's share of the probe slots; a result some probe was not made for is not kept.
      run: () =>
        checkMail(checkDeps, domain, {
          selectors,
          operator,
          caller: sender.subject,
          interactive: true,
          ...(lists ? { listsUnavailable: lists.reason } : {}),
        }),
      cacheable: (result: unknown) =>
        !(result as MailCheckResult).mx.some((host) => isCapacityShortage(host.smtp)),
    };
  };
}
