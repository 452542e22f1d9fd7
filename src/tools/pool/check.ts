import { ApiError } from '../../http/index.js';
import { checkPoolAddresses } from '../../reputation/index.js';
import type { CheckRoute } from '../common/index.js';
import type { PoolToolDeps } from './deps.js';
import { discoverPath } from './discover.js';
import type { PoolDiscoveries } from './discoveries.js';
import { poolAddress, poolName } from './request.js';
import { checkBodyFor, checkResponse } from './schemas.js';

/**
 * POST /pool/v1/check: the addresses picked from a discover of the pool, on the blocklists. The
 * body's schema bounds how many (1 to POOL_MAX_IPS); this reads what it cannot: each address's
 * form, repeats, and whether a live discover of the pool found it.
 */
export function checkRoute(
  deps: PoolToolDeps,
  discoveries: PoolDiscoveries,
  toolName: string,
): CheckRoute<ReturnType<typeof checkBodyFor>> {
  return {
    path: '/check',
    operationId: 'checkPool',
    summary: 'Check the selected addresses of a pool',
    description:
      'The addresses chosen from a discover of the pool (1 to POOL_MAX_IPS, each once), each on the IP blocklists, with a summary per address and the worst verdict of them all.',
    body: checkBodyFor(deps.pool.maxIps),
    result: checkResponse,
    async prepare(body) {
      const pool = poolName(body.pool, 'pool', deps);
      const given = body.ips.map((ip) => ip.trim());
      const malformed = given.find((ip) => poolAddress(ip) === undefined);
      if (malformed !== undefined)
        throw new ApiError('invalid_target', `${malformed} is not a valid IP address`);
      const ips = given.map((ip) => poolAddress(ip)!);
      const twice = ips.find((ip, index) => ips.indexOf(ip) !== index);
      if (twice !== undefined) throw new ApiError('invalid_request', `${twice} is listed twice`);
      const known = await discoveries.alive(pool);
      const stranger = ips.find((ip) => !known.has(ip));
      if (stranger !== undefined) {
        throw new ApiError(
          'invalid_target',
          `${stranger} was not found by a discover of ${pool} (POST /${toolName}/v1${discoverPath} first)`,
        );
      }
      return {
        requestKey: `check ${pool} ${ips.join(',')}`,
        async run() {
          return { ok: true, result: await checkPoolAddresses(deps, pool, ips) };
        },
      };
    },
  };
}
