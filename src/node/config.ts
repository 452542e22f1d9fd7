import { z } from 'zod';
import {
  type Config,
  commaList,
  integer,
  parseEnvironment,
  refineShared,
  sharedConfig,
  sharedVariables,
} from '../config.js';
import { parseServerAddress } from './dns/index.js';
import { type StoreLocation, defaultStoreUrl, parseStoreUrl } from '../store/index.js';

/**
 * The Node server's configuration: the variables every runtime shares (src/config.ts) and the
 * ones only a Node process has, its socket, resolvers, files, processes and threads.
 */

const nodeSchema = z
  .object({
    ...sharedVariables,
    PORT: integer(8787, 0, 65535),
    HOST: z.string().min(1).default('0.0.0.0'),
    DNS_SERVERS: commaList.refine(
      (servers) => servers.every((server) => parseServerAddress(server) !== undefined),
      'a comma list of ip, ip:port or [ipv6]:port',
    ),
    DNS_TRANSPORT: z.enum(['udp', 'doh']).default('udp'),
    DNSBL_ZONES_FILE: z.string().min(1).optional(),
    STORE_URL: z
      .string()
      .default(defaultStoreUrl)
      .transform((url, ctx) => {
        try {
          return parseStoreUrl(url);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
    WORKERS: integer(1, 1, 256),
    HEADERS_TIMEOUT_MS: integer(10_000, 100, 600_000),
    REQUEST_TIMEOUT_MS: integer(30_000, 100, 3_600_000),
    KEEP_ALIVE_TIMEOUT_MS: integer(5000, 100, 600_000),
    MAX_CONNECTIONS: integer(512, 1, 1_000_000),
    CARD_RENDER_THREADS: integer(0, 0, 64),
    CARD_RENDER_QUEUE: integer(64, 0, 100_000),
  })
  .superRefine(refineShared)
  .superRefine((env, ctx) => {
    if (env.DNS_TRANSPORT === 'doh' && env.DOH_URL.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['DOH_URL'],
        message: 'required with DNS_TRANSPORT=doh',
      });
    }
    // Node refuses a headers timeout longer than the whole request's (the headers are part of it).
    if (env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS)
      ctx.addIssue({
        code: 'custom',
        path: ['HEADERS_TIMEOUT_MS'],
        message: `at most REQUEST_TIMEOUT_MS (${env.REQUEST_TIMEOUT_MS})`,
      });
    // Each worker would have its own memory: tokens made by one would be 404 on the others, and
    // every worker would count its own quota.
    if (env.WORKERS > 1 && env.STORE_URL.kind === 'memory') {
      ctx.addIssue({
        code: 'custom',
        path: ['WORKERS'],
        message: `WORKERS=${env.WORKERS} needs a store the workers share: STORE_URL=memory: keeps one per process; use sqlite:PATH or redis://`,
      });
    }
  });

export interface NodeConfig extends Config {
  port: number;
  host: string;
  dns: Config['dns'] & {
    /** `DNS_SERVERS`: the resolvers asked over UDP; empty means the system's. */
    servers: string[];
    /** `udp` (node:dgram, `servers`) or `doh` (RFC 8484 over HTTP/2, `dohUrls`). */
    transport: 'udp' | 'doh';
  };
  /** `DNSBL_ZONES_FILE`: a zone list read at start instead of the bundled one. */
  zonesFile?: string;
  /** STORE_URL: where tokens, the result cache, quotas and pool discoveries live. */
  store: StoreLocation;
  /** WORKERS: processes serving one port (node:cluster). */
  workers: number;
  /** Connection hygiene of the Node server (docs/http-hardening.md). */
  connections: {
    /** A request's headers must be in within this. */
    headersTimeoutMs: number;
    /** The whole request (headers and body) must be in within this. */
    requestTimeoutMs: number;
    /** An idle kept-alive connection is closed after this. */
    keepAliveTimeoutMs: number;
    /** Open connections per process; one more is refused with a 503. */
    max: number;
  };
  /** Card rendering off the event loop: worker threads (0: one per core but one) and queued cards. */
  cardRender: { threads: number; queue: number };
}

/** Reads the Node configuration, or throws one Error listing every bad variable by name. */
export function readConfig(env: Record<string, string | undefined>): NodeConfig {
  const e = parseEnvironment(nodeSchema, env);
  const shared = sharedConfig(e);
  return {
    ...shared,
    port: e.PORT,
    host: e.HOST,
    dns: { ...shared.dns, servers: e.DNS_SERVERS, transport: e.DNS_TRANSPORT },
    ...(e.DNSBL_ZONES_FILE ? { zonesFile: e.DNSBL_ZONES_FILE } : {}),
    store: e.STORE_URL,
    workers: e.WORKERS,
    connections: {
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      max: e.MAX_CONNECTIONS,
    },
    cardRender: { threads: e.CARD_RENDER_THREADS, queue: e.CARD_RENDER_QUEUE },
  };
}
