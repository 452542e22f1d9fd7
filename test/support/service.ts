import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createApp } from '../../src/app.js';
import { createCardRenderer } from '../../src/node/cards/card-render.js';
import { readCardFonts } from '../../src/node/cards/fonts.js';
import { createFontLoader } from '../../src/share/fonts.js';
import { readConfig } from '../../src/node/config.js';
import { compressResponses } from '../../src/node/compression.js';
import { createNodeServices } from '../../src/node/services.js';
import type { ServiceOptions } from '../../src/services.js';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import {
  type FixtureDnsServer,
  type FixtureZone,
  startFixtureDnsServer,
} from '../fixtures/dns-server.js';
import { dnsblWorld } from '../fixtures/dnsbl-world.js';
import { assertAnswerDocumented } from './documented.js';
import { type FixtureDohServer, startFixtureDohServer } from '../fixtures/doh-server.js';
import {
  type LyingMode,
  type LyingResolver,
  startLyingResolver,
} from '../fixtures/lying-resolver.js';
import { startFakeCaptchaProvider } from '../fixtures/captcha-provider.js';
import {
  type CaptchaProviderFixture,
  type RouteService,
  type RouteServiceOptions,
  basePath,
} from './harness.js';

export {
  basePath,
  expectError,
  expectQuotaStatus,
  postError,
  type CaptchaProviderFixture,
} from './harness.js';

/**
 * The real service over real sockets, for route tests: a fixture DNS server holding the default
 * zone list's world (plus the test's own zones), the app built by createServices + createApp as
 * server.ts does, served on 127.0.0.1 on a free port.
 */

export interface TestService extends RouteService {
  /** The app, for its OpenAPI registry. */
  app: ReturnType<typeof createApp>;
  dns: FixtureDnsServer;
  /** With `transport: 'doh'`: the DoH endpoint the service resolves through, in front of `dns`. */
  doh?: FixtureDohServer;
  /** The lying resolver between the service and `dns`, when the test asked for one. */
  lying?: LyingResolver;
}

export interface TestServiceOptions extends Omit<RouteServiceOptions, 'env'> {
  /** The whole DNS world, instead of the default zone list's world with `listings` and `zones`. */
  world?: FixtureZone[];
  env?: Record<string, string> | ((dns: FixtureDnsServer) => Record<string, string>);
  /**
   * `doh`: the service runs with DNS_TRANSPORT=doh, its DOH_URL a fixture DoH endpoint answering
   * from the same fixture DNS world. Default `udp`.
   */
  transport?: 'udp' | 'doh';
  /** Ask through a lying resolver in front of the fixture server, starting in this mode. */
  lying?: LyingMode;
  /** Shorter self-test and hold-probe intervals than the environment allows. */
  services?: ServiceOptions;
}

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
  // The watches keep the real time until a test sets the clock: their runner's timer does.
  let watchNow: Date | undefined = options.now;
  const services = await createNodeServices(config, (line) => logs.push(line), {
    watchClock: () => watchNow ?? new Date(),
    ...options.services,
  });
  let now = options.now ?? new Date();
  const app = createApp({
    ...services,
    config,
    clock: () => now,
    peerAddress: (c) => getConnInfo(c).remote.address ?? '',
    compression: compressResponses(),
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const url = (path: string) => `http://127.0.0.1:${port}${basePath}${path}`;
  /** Every JSON answer a test reads, result or error, is first checked against its documentation. */
  async function documented(method: string, path: string, response: Response) {
    if (!/^application\/json/.test(response.headers.get('content-type') ?? '')) return response;
    const route = `${basePath}${path.split('?')[0]}`;
    assertAnswerDocumented(app, method, route, response.status, await response.clone().json());
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
      watchNow = date;
    },
    fetch: (target, init) => fetch(target, init),
    asksNameServers: !doh,
    deadlineMs: config.checkDeadlineMs,
    dnsQueries: async () => [...dns.queries],
    setZones: async (zones) => dns.setZones(zones),
    renderCard: createCardRenderer(createFontLoader(() => readCardFonts())),
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
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A test's server owes no client a graceful end: a browser's kept-alive or speculative
      // connection would otherwise hold close() until it times out.
      (server as Server).closeAllConnections();
      await closed;
      await services.close();
      await doh?.close();
      await lying?.close();
      await dns.close();
    },
  };
}

/** The fake captcha provider of test/fixtures, in this process. */
export async function startCaptchaProvider(options: {
  goodTokens: string[];
}): Promise<CaptchaProviderFixture> {
  const provider = await startFakeCaptchaProvider(options);
  return {
    urlFor: (name) => provider.urlFor(name),
    requests: async () => [...provider.requests],
    setMode: async (mode) => provider.setMode(mode),
    close: () => provider.close(),
  };
}
