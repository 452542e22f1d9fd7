import {
  type CheckOutcome,
  discoverPool,
  noPublicAddress,
  type PoolDiscoverResult,
} from '../../reputation/index.js';
import { type CheckRoute, firstNonEmpty } from '../common/index.js';
import type { PoolToolDeps } from './deps.js';
import type { PoolDiscoveries } from './discoveries.js';
import { poolName } from './request.js';
import { discoverBody, discoverResponse } from './schemas.js';

/** The first check: what a pool check's addresses must have been found by. */
export const discoverPath = '/discover';

/** POST /pool/v1/discover: every address the pool hands out, kept for the checks that follow. */
export function discoverRoute(
  deps: PoolToolDeps,
  discoveries: PoolDiscoveries,
): CheckRoute<typeof discoverBody> {
  return {
    path: discoverPath,
    operationId: 'discoverPool',
    summary: "Find a DNS pool's addresses",
    description:
      'Asks the pool’s name again and again (its authoritative name servers directly where it can) and answers every address it handed out, with how complete the discovery looks. The addresses found are kept for POST /pool/v1/check, which takes only those.',
    body: discoverBody,
    result: discoverResponse,
    prepare(body) {
      const pool = poolName(firstNonEmpty(body.pool, body.domain), 'pool (alias domain)', deps);
      return {
        requestKey: `discover ${pool}`,
        run() {
          return discover(deps, discoveries, pool);
        },
      };
    },
  };
}

async function discover(
  deps: PoolToolDeps,
  discoveries: PoolDiscoveries,
  pool: string,
): Promise<CheckOutcome<PoolDiscoverResult>> {
  const { maxIps, discovery } = deps.pool;
  const found = await discoverPool(deps.resolver, pool, {
    ...discovery,
    deadlineMs: deps.deadlineMs,
    maxAddresses: maxIps,
  });
  if (found.status === 'dns_unavailable') {
    // A discovery asks the pool's own DNS and no list.
    return {
      ok: false,
      error: 'dns_unavailable',
      reason: `no DNS answer about ${pool}`,
      listsAsked: 0,
    };
  }
  // One answer for a pool that does not exist, has no address or only internal ones.
  if (found.addresses.length === 0) {
    return { ok: false, error: 'invalid_target', reason: noPublicAddress(pool) };
  }
  await discoveries.record(pool, found.addresses);
  const { status: _status, addresses, ...about } = found;
  return {
    ok: true,
    result: {
      kind: 'discover',
      ...about,
      pool,
      ips: addresses,
      results: addresses,
      // Always true: a pool without a public address is a 400 (docs/checks.md).
      exists: true,
      checked_at: deps.now().toISOString(),
    },
  };
}
