import { expect } from 'vitest';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createApp } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import { createLogger } from '../../src/http/log.js';
import { compressResponses } from '../../src/node/compression.js';
import { type ServiceOptions, createServices } from '../../src/services.js';
import { loadZoneList } from '../../src/reputation/zones.js';
import {
  type FixtureDnsServer,
  type FixtureZone,
  startFixtureDnsServer,
} from '../fixtures/dns-server.js';
import { type Listings, dnsblWorld } from '../fixtures/dnsbl-world.js';
import { assertDocumented, documentedSchema } from './documented.js';
import { type FixtureDohServer, startFixtureDohServer } from '../fixtures/doh-server.js';
import {
  type LyingMode,
  type LyingResolver,
  startLyingResolver,
} from '../fixtures/lying-resolver.js';

/**
 * The real service over real sockets, for route tests: a fixture DNS server holding the default
 * zone list's world (plus the test's own zones), the app built by createServices + createApp as
 * server.ts does, served on 127.0.0.1 on a free port.
 */

export interface TestService {
  url(path: string): string;
  /** The app, for its OpenAPI registry. */
  app: ReturnType<typeof createApp>;
  dns: FixtureDnsServer;
  /** With `transport: 'doh'`: the DoH endpoint the service resolves through, in front of `dns`. */
  doh?: FixtureDohServer;
  /** The lying resolver between the service and `dns`, when the test asked for one. */
  lying?: LyingResolver;
  /** Log lines the service wrote. */
  logs: string[];
  /** Moves the injected clock. */
  setNow(date: Date): void;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  /** The whole DNS world, instead of the default zone list's world with `listings` and `zones`. */
  world?: FixtureZone[];
  listings?: Listings;
  zones?: FixtureZone[];
  /**
   * Environment variables on top of the test defaults; as a function, built from the fixture DNS
   * server once it listens (e.g. `POOL_NS_PORT` from its port).
   */
  env?: Record<string, string> | ((dns: FixtureDnsServer) => Record<string, string>);
  latencyMs?: number;
  /** Serve no DNS at all: the resolver points at a closed port. */
  deadDns?: boolean;
  /**
   * `doh`: the service runs with DNS_TRANSPORT=doh, its DOH_URL a fixture DoH endpoint answering
   * from the same fixture DNS world. Default `udp`.
   */
  transport?: 'udp' | 'doh';
  /** Ask through a lying resolver in front of the fixture server, starting in this mode. */
  lying?: LyingMode;
  /** Shorter self-test and hold-probe intervals than the environment allows. */
  services?: ServiceOptions;
  now?: Date;
}

export const basePath = '/tools/ip-reputation';

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const zoneList = await loadZoneList();
  const dns = await startFixtureDnsServer({
    zones: options.world ?? [
      ...dnsblWorld(zoneList, options.listings ?? {}),
      ...(options.zones ?? []),
    ],
    latencyMs: options.latencyMs ?? 0,
  });
  const doh = options.transport === 'doh' ? await startFixtureDohServer({ dns }) : undefined;
  const lying = options.lying
    ? await startLyingResolver({ upstream: dns.address, mode: options.lying })
    : undefined;
  const config = readConfig({
    // Over DoH, UDP goes nowhere: a query that took it would time out and show.
    DNS_SERVERS: options.deadDns || doh ? '127.0.0.1:9' : (lying?.address ?? dns.address),
    ...(doh
      ? {
          DNS_TRANSPORT: 'doh',
          DOH_URL: options.deadDns ? 'http://127.0.0.1:9/dns-query' : doh.url,
        }
      : {}),
    DNS_TIMEOUT_MS: '300',
    DNS_RETRIES: '0',
    CHECK_DEADLINE_MS: '1500',
    LOG_LEVEL: 'info',
    // Not the default sqlite:data/reputation.db: a test never writes into the repository.
    STORE_URL: 'memory:',
    ...(typeof options.env === 'function' ? options.env(dns) : options.env),
  });
  const logs: string[] = [];
  const log = createLogger(config.logLevel, (line) => logs.push(line));
  const services = await createServices(config, log, options.services);
  let now = options.now ?? new Date();
  const app = createApp({
    ...services,
    config,
    clock: () => now,
    log,
    peerAddress: (c) => getConnInfo(c).remote.address ?? '',
    compression: compressResponses(),
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const url = (path: string) => `http://127.0.0.1:${port}${basePath}${path}`;
  /** Every 200 JSON answer a test reads is first checked against its documented schema. */
  async function documented(method: string, path: string, response: Response) {
    if (response.status !== 200) return response;
    if (!/^application\/json/.test(response.headers.get('content-type') ?? '')) return response;
    const route = `${basePath}${path.split('?')[0]}`;
    const schema = documentedSchema(app, method, route);
    if (schema) assertDocumented(schema, await response.clone().json(), `${method} ${route}`);
    return response;
  }

  return {
    url,
    app,
    dns,
    ...(doh ? { doh } : {}),
    ...(lying ? { lying } : {}),
    logs,
    setNow: (date) => {
      now = date;
    },
    post: async (path, body, headers = {}) =>
      documented(
        'POST',
        path,
        await fetch(url(path), {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      ),
    get: async (path, headers = {}) => documented('GET', path, await fetch(url(path), { headers })),
    async close() {
      services.monitor.stop();
      await services.cardPool.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await doh?.close();
      await lying?.close();
      await services.store.close();
      await dns.close();
    },
  };
}

/** The quota status object of a status endpoint: exactly the contract's fields. */
export async function expectQuotaStatus(response: Response, dailyLimit: number): Promise<void> {
  expect(response.status).toBe(200);
  const status = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(status).sort()).toEqual(
    ['captchaRequired', 'configured', 'dailyLimit', 'dailyRemaining'].sort(),
  );
  expect(status).toMatchObject({ configured: true, dailyLimit, captchaRequired: false });
  expect(status.dailyRemaining).toEqual(expect.any(Number));
}

/**
 * The error body of a POST route: the error triple plus the caller's quota status (with its
 * `reason` when the service is not configured).
 */
export function postError(code: string, error: unknown = expect.any(String)) {
  return {
    status: 'error',
    code,
    error,
    ...(code === 'not_configured' ? { reason: expect.any(String) } : {}),
    configured: expect.any(Boolean),
    dailyLimit: expect.any(Number),
    dailyRemaining: expect.any(Number),
    captchaRequired: expect.any(Boolean),
  };
}

/** A JSON error answer with this status and exactly this body. */
export async function expectError(
  response: Response,
  status: number,
  body: unknown,
): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await response.json()).toEqual(body);
}
