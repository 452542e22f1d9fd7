import { expect } from 'vitest';
import type { CaptchaProvider } from '../../src/http/captcha/index.js';
import type { Lang } from '../../src/i18n/index.js';
import type { ShareSummary } from '../../src/share/summary.js';
import type { FixtureQuery, FixtureZone } from '../../fixtures/dns-server.js';
import type { Listings } from '../../fixtures/dnsbl-world.js';

/**
 * What a route test sees of the service under test and its fixtures, whichever runtime serves it:
 * the Node server (support/service.ts) or the Worker inside workerd (workerd/support/service.ts,
 * which the workerd project puts in place of support/service.ts). A route suite written against
 * this face runs on both (docs/edge.md, "Tests").
 */

export const basePath = '/tools/ip-reputation';

export interface RouteService {
  url(path: string): string;
  /** A URL at the root path, outside BASE_PATH (GET /healthz, /readyz, /metrics). */
  rootUrl(path: string): string;
  /** Any request to the service, to a URL from `url()`. */
  fetch(url: string, init?: RequestInit): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /** Log lines the service wrote. */
  logs: string[];
  /** Moves the injected clock. */
  setNow(date: Date): void;
  /**
   * Whether the service asks a pool zone's own name servers itself (Node over UDP), or only its
   * resolvers (over DoH, as the Worker does): what pool discovery finds differs (docs/edge.md).
   */
  readonly asksNameServers: boolean;
  /** CHECK_DEADLINE_MS as the service runs with it. */
  readonly deadlineMs: number;
  /** Every question the fixture DNS world has received so far, in order. */
  dnsQueries(): Promise<FixtureQuery[]>;
  /** Serves these zones from now on instead of the world the service started with. */
  setZones(zones: FixtureZone[]): Promise<void>;
  /** Draws a card as this runtime's renderer does (the PNG bytes the card route serves). */
  renderCard(summary: ShareSummary, lang?: Lang): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** The fixture DNS server as a route suite may know it: where it listens. */
export interface FixtureDnsAddress {
  readonly port: number;
  /** '127.0.0.1:<port>'. */
  readonly address: string;
}

export interface RouteServiceOptions {
  /** Listings in the default zone list's world (fixtures/dnsbl-world.ts). */
  listings?: Listings;
  /** The test's own zones beside that world. */
  zones?: FixtureZone[];
  /**
   * Environment variables on top of the test defaults; as a function, built from the fixture DNS
   * server once it listens (e.g. `POOL_NS_PORT` from its port).
   */
  env?: Record<string, string> | ((dns: FixtureDnsAddress) => Record<string, string>);
  latencyMs?: number;
  /** Serve no DNS at all: the resolver points at a closed port. */
  deadDns?: boolean;
  now?: Date;
}

/** How the fake captcha provider answers (fixtures/captcha-provider.ts). */
export type CaptchaMode = 'ok' | 'error' | 'hang' | 'not-json';

export interface CaptchaRequest {
  path: string;
  contentType: string | undefined;
  fields: Record<string, string>;
}

/** The fake captcha provider, reached from wherever the service runs. */
export interface CaptchaProviderFixture {
  /** The verify endpoint that speaks this provider's protocol. */
  urlFor(provider: CaptchaProvider): string;
  /** Every request received so far, in order. */
  requests(): Promise<CaptchaRequest[]>;
  setMode(mode: CaptchaMode): Promise<void>;
  close(): Promise<void>;
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
