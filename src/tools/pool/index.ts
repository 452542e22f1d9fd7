import { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/index.js';
import { canonicalIpv6, isDottedQuad, parseIpv6 } from '../../lib/index.js';
import {
  checkPoolAddresses,
  discoverPool,
  type DnsblEngine,
  noPublicAddress,
  parseHostName,
  poolCheckResultSchema,
  type PoolDiscoverResult,
  poolDiscoverResultSchema,
  type PoolDiscoveryOptions,
} from '../../reputation/index.js';
import type { Resolver } from '../../dns/index.js';
import type { Store } from '../../store/index.js';
import {
  captchaFields,
  defineTool,
  firstNonEmpty,
  postFields,
  quotaStatusSchema,
  requiredWithAlias,
  type SnapshotDeps,
  snapshotTool,
} from '../common/index.js';
import { createPoolDiscoveries } from './discoveries.js';
import { poolPage } from './page.js';
import { summarisePool } from './summary.js';

/** The pool tool: discover every address a DNS pool hands out, then check the ones selected. */

export interface PoolToolDeps extends SnapshotDeps {
  resolver: Resolver;
  dnsbl: DnsblEngine;
  deadlineMs: number;
  now: () => Date;
  /** Where discoveries are kept, for as long as their tokens. */
  store: Store;
  tokenTtlMs: number;
  pool: {
    /** POOL_MAX_IPS: the most addresses a discover keeps and a check takes. */
    maxIps: number;
    discovery: Pick<
      PoolDiscoveryOptions,
      'nameServerPort' | 'allowNonPublicNameServers' | 'askNameServers'
    >;
  };
}

/** What the service itself checks: the demo world's pool (`npm run demo`). */
const examplePool = 'pool.demo-sender.com';

const discoverResponse = poolDiscoverResultSchema
  .extend({ ...postFields, ...quotaStatusSchema.shape })
  .openapi('PoolDiscoverResponse');

const checkResponse = poolCheckResultSchema
  .extend({ ...postFields, ...quotaStatusSchema.shape })
  .openapi('PoolCheckResponse');

const storedResult = z
  .discriminatedUnion('kind', [
    poolDiscoverResultSchema.extend({ token: postFields.token }),
    poolCheckResultSchema.extend({ token: postFields.token }),
  ])
  .openapi('PoolStoredResult', {
    description: 'A discover (kind discover: results holds the addresses) or a check (kind check).',
  });

const discoverBody = requiredWithAlias(
  z
    .object({
      pool: z.string().max(1024).optional().openapi({
        description:
          'Host name of the pool. Give it or its alias domain; if both, the first non-empty one wins.',
        example: examplePool,
      }),
      domain: z
        .string()
        .max(1024)
        .optional()
        .openapi({ description: 'Alias of pool, used when pool is absent or empty' }),
      ...captchaFields,
    })
    .openapi('PoolDiscoverRequest', { example: { pool: examplePool } }),
  'pool',
  'domain',
);

/** `ips` holds 1 to POOL_MAX_IPS addresses: the schema says what the service enforces. */
function checkBodyFor(maxIps: number) {
  const limit = `ips must hold 1 to ${maxIps} addresses`;
  return z
    .object({
      pool: z
        .string()
        .max(1024)
        .openapi({ description: 'Host name of the pool', example: examplePool }),
      ips: z
        .array(z.string().max(64))
        .min(1, limit)
        .max(maxIps, limit)
        .openapi({
          uniqueItems: true,
          description: `1 to ${maxIps} distinct addresses, each found by the latest discover of the pool: IPv4, or IPv6 in any RFC 4291 text form (compared and shown in RFC 5952 canonical form)`,
          example: ['192.0.3.100', '192.0.3.101'],
        }),
      ...captchaFields,
    })
    .openapi('PoolCheckRequest', {
      example: { pool: examplePool, ips: ['192.0.3.100', '192.0.3.101'] },
    });
}

/**
 * An address of a pool check as discovery stores it: a dotted quad as it is, IPv6 in RFC 5952
 * form (so `2001:DB8:0::1` is the `2001:db8::1` discovery found); undefined when it is neither.
 */
function poolAddress(text: string): string | undefined {
  if (isDottedQuad(text)) return text;
  const ipv6 = parseIpv6(text);
  return ipv6 === undefined ? undefined : canonicalIpv6(ipv6);
}

function poolName(text: string | undefined, field: string): string {
  if (text === undefined) throw new ApiError('invalid_request', `${field} is required`);
  const parsed = parseHostName(text);
  if (!parsed.ok) throw new ApiError('invalid_target', parsed.reason);
  if (parsed.target.kind !== 'domain')
    throw new ApiError('invalid_target', 'the pool is a host name');
  return parsed.target.name;
}

/** The first check: what a pool check's addresses must have been found by. */
const discoverPath = '/discover';

export const poolTool = defineTool({
  name: 'pool',
  title: 'Pool',
  description: 'The addresses behind a DNS pool name, then the chosen ones on the blocklists',
  submit: 'check.discover',
  summarise: summarisePool,
  page: poolPage,
  serve(app, deps: PoolToolDeps): void {
    const { maxIps, discovery } = deps.pool;
    const discoveries = createPoolDiscoveries(deps.store, deps.tokenTtlMs);
    const tool = snapshotTool(app, poolTool, deps);
    tool.status();

    tool.check({
      path: discoverPath,
      operationId: 'discoverPool',
      summary: "Find a DNS pool's addresses",
      body: discoverBody,
      result: discoverResponse,
      prepare(body) {
        const pool = poolName(firstNonEmpty(body.pool, body.domain), 'pool (alias domain)');
        return {
          requestKey: `discover ${pool}`,
          async run() {
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
            const result: PoolDiscoverResult = {
              kind: 'discover',
              ...about,
              pool,
              ips: addresses,
              results: addresses,
              // Always true: a pool without a public address is a 400 (docs/checks.md).
              exists: true,
              checked_at: deps.now().toISOString(),
            };
            return { ok: true, result };
          },
        };
      },
    });

    tool.check({
      path: '/check',
      operationId: 'checkPool',
      summary: 'Check the selected addresses of a pool',
      body: checkBodyFor(maxIps),
      result: checkResponse,
      async prepare(body) {
        const pool = poolName(body.pool, 'pool');
        const given = body.ips.map((ip) => ip.trim());
        if (given.length === 0 || given.length > maxIps) {
          throw new ApiError('invalid_request', `ips must hold 1 to ${maxIps} addresses`);
        }
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
            `${stranger} was not found by a discover of ${pool} (POST /${poolTool.name}/v1${discoverPath} first)`,
          );
        }
        return {
          requestKey: `check ${pool} ${ips.join(',')}`,
          async run() {
            return { ok: true, result: await checkPoolAddresses(deps, pool, ips) };
          },
        };
      },
    });

    tool.tokenRoutes(storedResult);
  },
});
