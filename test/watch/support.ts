import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll } from 'vitest';
import { readConfig } from '../../src/node/config.js';
import { startMonitorTimer } from '../../src/node/monitor-timer.js';
import { createNodePlatform } from '../../src/node/platform.js';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { type ServiceOptions, type Services, createServices } from '../../src/services.js';
import type { Watches, WatchEvent } from '../../src/watch/index.js';
import {
  type FixtureDnsServer,
  type FixtureZone,
  startFixtureDnsServer,
} from '../../fixtures/dns-server.js';
import { type Listings, dnsblWorld } from '../../fixtures/dnsbl-world.js';
import { type LyingResolver, startLyingResolver } from '../../fixtures/lying-resolver.js';
import {
  type ReceivedWebhook,
  type WebhookReceiver,
  startWebhookReceiver,
} from '../../fixtures/webhook-receiver.js';
import { withReportsOutsideTheRepository } from '../support/reports-location.js';

/**
 * What the watch tests run on: the default zone list's fixture DNS world behind a resolver that
 * can be made to lie or fall silent (fixtures/), and the service's own services (src/services.ts
 * over the Node platform: the zone monitor, fresh look-ups, the webhook sender) on a store named
 * by STORE_URL, with a clock the test moves. No timer drives the runner here: the tests tick it.
 */

export const zones = await loadZoneList();

/** Public addresses of the tests (only DNS questions about them are asked, to the fixture). */
export const watchedIp = '8.8.100.7';
export const otherIp = '8.8.100.9';

export interface WatchDns {
  /** Where the services resolve: the lying resolver in front of the fixture server. */
  address: string;
  dns: FixtureDnsServer;
  lying: LyingResolver;
  /** Serves the world with these listings (and these extra zones) from now on. */
  list(listings: Listings, extra?: FixtureZone[]): void;
  close(): Promise<void>;
}

export async function startWatchDns(
  listings: Listings = {},
  extra: FixtureZone[] = [],
): Promise<WatchDns> {
  const dns = await startFixtureDnsServer({ zones: [...dnsblWorld(zones, listings), ...extra] });
  const lying = await startLyingResolver({ upstream: dns.address });
  return {
    address: lying.address,
    dns,
    lying,
    list: (next, more = []) => dns.setZones([...dnsblWorld(zones, next), ...more]),
    async close() {
      await lying.close();
      await dns.close();
    },
  };
}

/** The fixture DNS world and a webhook receiver, as a test file of the runner starts them. */
export interface WatchWorld {
  dns: WatchDns;
  receiver: WebhookReceiver;
  close(): Promise<void>;
}

export async function startWatchWorld(): Promise<WatchWorld> {
  const dns = await startWatchDns();
  const receiver = await startWebhookReceiver();
  return {
    dns,
    receiver,
    async close() {
      await receiver.close();
      await dns.close();
    },
  };
}

/**
 * The world of a test file: started before its tests, closed after them. Its members are there
 * from the first test on.
 */
export function useWatchWorld(): WatchWorld {
  const world = {} as WatchWorld;
  beforeAll(async () => {
    Object.assign(world, await startWatchWorld());
  });
  afterAll(() => world.close());
  return world;
}

/** A clock the test moves; it starts at the real time so webhook timestamps verify. */
export interface TestClock {
  now(): Date;
  advance(ms: number): void;
}

export function testClock(): TestClock {
  let at = Date.now();
  return {
    now: () => new Date(at),
    advance: (ms) => {
      at += ms;
    },
  };
}

export interface WatchService {
  services: Services;
  watches: Watches;
  /** Ticks the runner until a tick claims nothing: every check and delivery due now has run. */
  runUntilIdle(): Promise<void>;
  /** GET /metrics' text of this service (docs/operations.md). */
  metricsText(): Promise<string>;
  close(): Promise<void>;
}

/** OPERATOR_TOKEN of the watch services: the tests' watches are the operator's. */
export const operatorToken = 'operator-token-of-the-tests';

export interface WatchServiceOptions {
  storeUrl?: string;
  /** The service's clock; the real one without it. */
  clock?: TestClock;
  env?: Record<string, string>;
  retryDelaysMs?: readonly number[];
  checkLeaseMs?: number;
  logs?: string[];
  services?: ServiceOptions;
}

export async function startWatchService(
  dnsAddress: string,
  options: WatchServiceOptions = {},
): Promise<WatchService> {
  const config = readConfig(
    withReportsOutsideTheRepository({
      DNS_SERVERS: dnsAddress,
      // Generous for a machine busy with other suites: a list that answers late is silent, and a
      // silent list changes nothing, so a test that expects a change would miss it. The tests of
      // silence shorten the deadline (a silent list holds each check that long).
      DNS_TIMEOUT_MS: '2000',
      DNS_RETRIES: '0',
      CHECK_DEADLINE_MS: '3000',
      STORE_URL: options.storeUrl ?? 'memory:',
      LOG_LEVEL: 'info',
      WATCH_MIN_INTERVAL_S: '1',
      WATCH_INTERVAL_S: '60',
      // The receivers listen on 127.0.0.1: the operator's watches may reach it.
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      OPERATOR_TOKEN: operatorToken,
      WEBHOOK_TIMEOUT_MS: '5000',
      ...options.env,
    }),
  );
  const logSink = (line: string) => options.logs?.push(line);
  const platform = await createNodePlatform(config, logSink);
  const now = options.clock ? () => options.clock!.now() : () => new Date();
  const services = await createServices(
    config,
    { ...platform, clock: now },
    {
      ...options.services,
      watchRunner: {
        ...(options.retryDelaysMs ? { retryDelaysMs: options.retryDelaysMs } : {}),
        ...(options.checkLeaseMs ? { checkLeaseMs: options.checkLeaseMs } : {}),
      },
    },
  );
  const { watches } = services;
  // The zone monitor on its timer, as the Node server runs it: lists on hold are probed again.
  const monitorTimer = startMonitorTimer(services.localMonitor!);
  return {
    services,
    watches,
    async runUntilIdle() {
      for (;;) {
        const report = await watches.runner.tick();
        if (report.checks === 0 && report.deliveries === 0) return;
      }
    },
    metricsText: () => platform.prometheus.registry.metrics(),
    async close() {
      monitorTimer.stop();
      await watches.runner.settled();
      await platform.cardPool.close();
      await platform.store.close();
    },
  };
}

/**
 * A received webhook read as Standard Webhooks' own verifier reads it (it throws on a bad
 * signature or a timestamp more than 5 minutes off), with the event it carries.
 */
export function verified(secret: string, request: ReceivedWebhook): WatchEvent {
  return new Webhook(secret).verify(request.body, request.headers) as WatchEvent;
}
