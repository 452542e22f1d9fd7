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
import { createNodePlatform } from '../../src/node/platform.js';
import type { ServiceOptions } from '../../src/services.js';
import type { Store } from '../../src/store/index.js';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import {
  type FixtureQuery,
  type FixtureZone,
  startFixtureDnsServer,
} from '../../fixtures/dns-server.js';
import { dnsblWorld } from '../../fixtures/dnsbl-world.js';
import { createMemoryDns } from '../../fixtures/memory-dns.js';
import { assertAnswerDocumented } from './documented.js';
import { withReportsOutsideTheRepository } from './reports-location.js';
import { sharedCardThreads } from './shared-card-threads.js';
import { type FixtureDohServer, startFixtureDohServer } from '../../fixtures/doh-server.js';
import {
  type LyingMode,
  type LyingResolver,
  startLyingResolver,
} from '../../fixtures/lying-resolver.js';
import { startFakeCaptchaProvider } from '../../fixtures/captcha-provider.js';
import {
  type CaptchaProviderFixture,
  type FixtureDnsAddress,
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
 * The real service over real sockets, for route tests: the default zone list's fixture DNS world
 * (plus the test's own zones), the app built by createServices + createApp as server.ts does,
 * served on 127.0.0.1 on a free port. The world is answered in this process unless the test is
 * about the wire (`transport`, `lying`).
 */

/** The fixture DNS world as a test drives it, on the wire or in memory. */
export interface FixtureDnsWorld {
  /** Every question asked so far, in order. */
  readonly queries: readonly FixtureQuery[];
  setZones(zones: FixtureZone[]): void;
  setLatency(ms: number): void;
}

export interface TestService extends RouteService {
  /** The app, for its OpenAPI registry. */
  app: ReturnType<typeof createApp>;
  dns: FixtureDnsWorld;
  /** With `transport: 'doh'`: the DoH endpoint the service resolves through, in front of `dns`. */
  doh?: FixtureDohServer;
  /** The lying resolver between the service and `dns`, when the test asked for one. */
  lying?: LyingResolver;
  /** A caller's address as the request log writes it (hashed with this service's key). */
  callerHash(address: string): Promise<string>;
  /** The service's store, for a test that sets up what a route reads (a watch's history). */
  store: Store;
}

export interface TestServiceOptions extends Omit<RouteServiceOptions, 'env'> {
  /** The whole DNS world, instead of the default zone list's world with `listings` and `zones`. */
  world?: FixtureZone[];
  env?: Record<string, string> | ((dns: FixtureDnsAddress) => Record<string, string>);
  /**
   * How the service reaches the fixture world. `memory` (default): a transport that answers it in
   * this process (fixtures/memory-dns.ts), for every test the wire is not the point of.
   * `udp`: a real fixture DNS server on 127.0.0.1, asked through c-ares. `doh`: DNS_TRANSPORT=doh,
   * its DOH_URL a fixture DoH endpoint in front of that server.
   */
  transport?: 'memory' | 'udp' | 'doh';
  /** Ask over UDP through a lying resolver in front of the fixture server, in this mode. */
  lying?: LyingMode;
  /** Shorter self-test and hold-probe intervals than the environment allows. */
  services?: ServiceOptions;
  /** The service says it sends watch alerts by e-mail: the check page's watch form asks for an address. */
  sendsWatchEmail?: boolean;
  /**
   * OPERATOR_TOKEN is `testOperatorToken` and every POST sends it (unless the test's headers say
   * otherwise): only the operator's checks and watches probe PROBE_ALLOW_NETWORKS, where the
   * test's mail servers are.
   */
  asOperator?: boolean;
}

/** OPERATOR_TOKEN of a service started `asOperator`. */
export const testOperatorToken = 'operator-token-of-the-mail-tests';
export const operatorHeaders = { authorization: `Bearer ${testOperatorToken}` };

/**
 * In memory, a query naming servers of its own (a pool zone's name servers) is answered from the
 * same world, as the fixture server, every zone's name server, answers it: any port will do.
 */
const inMemory: FixtureDnsAddress = { port: 53, address: '127.0.0.1:53' };

function onLoopback(address: string): boolean {
  return address.startsWith('127.');
}

/** The card settings of a service whose test leaves CARD_RENDER_THREADS and CARD_RENDER_QUEUE unset. */
const defaultCardRender = readConfig({ STORE_URL: 'memory:' }).cardRender;

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const zoneList = await loadZoneList();
  const zones = options.world ?? [
    ...dnsblWorld(zoneList, options.listings ?? {}),
    ...(options.zones ?? []),
  ];
  const latencyMs = options.latencyMs ?? 0;
  const transport = options.lying ? 'udp' : (options.transport ?? 'memory');
  const wire =
    transport === 'memory' ? undefined : await startFixtureDnsServer({ zones, latencyMs });
  const doh = wire && transport === 'doh' ? await startFixtureDohServer({ dns: wire }) : undefined;
  const lying =
    wire && options.lying
      ? await startLyingResolver({ upstream: wire.address, mode: options.lying })
      : undefined;
  const config = readConfig({
    // Over DoH, and in memory, UDP goes nowhere: a query that took it would time out and show.
    DNS_SERVERS: options.deadDns || !wire || doh ? '127.0.0.1:9' : (lying?.address ?? wire.address),
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
    ...(options.asOperator ? { OPERATOR_TOKEN: testOperatorToken } : {}),
    ...withReportsOutsideTheRepository(
      typeof options.env === 'function' ? options.env(wire ?? inMemory) : options.env,
    ),
  });
  const memory = wire
    ? undefined
    : createMemoryDns({
        zones,
        latencyMs,
        // What c-ares waits before it gives a question up, with its retries.
        timeoutMs: config.dns.timeoutMs * (config.dns.retries + 1),
      });
  const dns: FixtureDnsWorld & { close(): unknown } = wire ?? memory!;
  const logs: string[] = [];
  const sink = (line: string) => logs.push(line);
  const platform = await createNodePlatform(config, sink);
  // With the default settings, cards are drawn on the worker process's shared card threads, whose
  // renderer is loaded once (shared-card-threads.ts); the platform's own pool then starts none.
  const { threads, queue } = config.cardRender;
  const cards =
    threads === defaultCardRender.threads && queue === defaultCardRender.queue
      ? { renderCard: sharedCardThreads(config.cardRender).render }
      : {};
  // The watches keep the real time until a test sets the clock: their runner's timer does.
  let watchNow: Date | undefined = options.now;
  const services = await createNodeServices(
    config,
    sink,
    { watchClock: () => watchNow ?? new Date(), ...options.services },
    {
      // Dead DNS stays the closed port of DNS_SERVERS: nothing answers, as the test asks.
      ...(memory && !options.deadDns
        ? { ...platform, dns: { ...platform.dns, transport: memory.resolver } }
        : platform),
      ...cards,
      // A test never leaves 127.0.0.1: the mail check probes loopback only (PROBE_ALLOW_NETWORKS
      // names which), whatever public address a world's MX host has. In memory, TLSA comes from
      // the same world, as it comes from the fixture server over UDP and DoH.
      probes: {
        ...platform.probes,
        reachable: (address) => onLoopback(address) && platform.probes.reachable(address),
        ...(memory && !options.deadDns
          ? { tlsa: memory.tlsa(config.dns.timeoutMs * (config.dns.retries + 1)) }
          : {}),
      },
    },
  );
  let now = options.now ?? new Date();
  const app = createApp({
    ...services,
    config,
    clock: () => now,
    peerAddress: (c) => getConnInfo(c).remote.address ?? '',
    compression: compressResponses(),
    ...(options.sendsWatchEmail ? { sendsWatchEmail: true } : {}),
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const rootUrl = (path: string) => `http://127.0.0.1:${port}${path}`;
  const url = (path: string) => rootUrl(`${basePath}${path}`);
  /** Every JSON answer a test reads, result or error, is first checked against its documentation. */
  async function documented(method: string, path: string, response: Response) {
    if (!/^application\/json/.test(response.headers.get('content-type') ?? '')) return response;
    const route = `${basePath}${path.split('?')[0]}`;
    assertAnswerDocumented(app, method, route, response.status, await response.clone().json());
    return response;
  }

  return {
    url,
    rootUrl,
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
    callerHash: services.hashCaller,
    store: services.store,
    asksNameServers: !doh,
    deadlineMs: config.checkDeadlineMs,
    dnsQueries: async () => [...dns.queries],
    setZones: async (next) => dns.setZones(next),
    renderCard: createCardRenderer(createFontLoader(() => readCardFonts())),
    post: async (path, body, headers = {}) =>
      documented(
        'POST',
        path,
        await fetch(url(path), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(options.asOperator ? operatorHeaders : {}),
            ...headers,
          },
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

/** The fake captcha provider of fixtures/, in this process. */
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
