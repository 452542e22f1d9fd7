import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { inject } from 'vitest';
import type { ShareSummary } from '../../../src/share/summary.js';
import { type WorkerEnv, createEdgeApp } from '../../../src/workers/app.js';
import { renderCard } from '../../../src/workers/card-render.js';
import type { FixtureQuery, FixtureZone } from '../../../fixtures/dns-server.js';
import type { ReceivedWebhook, ReceiverAnswer } from '../../../fixtures/webhook-receiver.js';
import {
  type CaptchaProviderFixture,
  type RouteService,
  type RouteServiceOptions,
  basePath,
} from '../../support/harness.js';
import type { WorldHandle, WorldSpec } from '../fixture-control.js';
import { assertAnswerDocumented } from '../../support/documented.js';

export {
  basePath,
  expectError,
  expectQuotaStatus,
  postError,
  type CaptchaProviderFixture,
} from '../../support/harness.js';

/**
 * support/service.ts for the suites inside workerd (the workerd project puts this module in its
 * place): the Worker's own app (src/workers/app.ts, as src/worker.ts serves it) with the real
 * Durable Object bindings of wrangler.toml, resolving over DoH through a fixture world that the
 * fixture service in Node (fixture-control.ts) starts for each service, and answering requests
 * handed to it as the runtime hands them (with CF-Connecting-IP, which Cloudflare sets).
 */

const control = inject('fixtureControl');

async function ask<T>(path: string, method = 'GET', body?: unknown): Promise<T> {
  const response = await fetch(`${control}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`fixture service: ${method} ${path}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** The fixture world behind the service's DoH endpoint. */
export interface FixtureWorld {
  readonly dohUrl: string;
  queries(): Promise<FixtureQuery[]>;
  /** Serves another world from now on. */
  setWorld(spec: WorldSpec): Promise<void>;
  /** Serves exactly these zones from now on. */
  setZones(zones: FixtureZone[]): Promise<void>;
}

export interface TestService extends RouteService {
  /** Undefined with `deadDns`. */
  world?: FixtureWorld;
  /**
   * Runs the watch runner until a run claims nothing, as the watch clock's alarm runs it, at the
   * service's clock: every re-check and delivery due then has been made. Nothing else ticks it.
   */
  runWatchesUntilIdle(): Promise<void>;
}

export interface TestServiceOptions extends RouteServiceOptions {
  spamhaus?: WorldSpec['spamhaus'];
}

/** Starts a fixture world in Node and hands back its client. */
export async function startWorld(
  spec: WorldSpec,
): Promise<FixtureWorld & { handle: WorldHandle; close(): Promise<void> }> {
  const handle = await ask<WorldHandle>('/worlds', 'POST', spec);
  return {
    handle,
    dohUrl: handle.dohUrl,
    queries: () => ask<FixtureQuery[]>(`/worlds/${handle.id}/queries`),
    setWorld: (next) => ask(`/worlds/${handle.id}/zones`, 'PUT', next),
    setZones: (zones) => ask(`/worlds/${handle.id}/zones`, 'PUT', { exactly: zones }),
    close: () => ask(`/worlds/${handle.id}`, 'DELETE'),
  };
}

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const world = options.deadDns
    ? undefined
    : await startWorld({
        ...(options.listings ? { listings: options.listings } : {}),
        ...(options.zones ? { zones: options.zones } : {}),
        ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}),
        ...(options.spamhaus ? { spamhaus: options.spamhaus } : {}),
      });
  const dns = world
    ? { port: world.handle.port, address: world.handle.address }
    : { port: 9, address: '127.0.0.1:9' };
  const variables = {
    // Nothing listens on port 9: with deadDns every query is refused at once.
    DOH_URL: world?.dohUrl ?? 'http://127.0.0.1:9/dns-query',
    // A DoH exchange with the fixture in Node costs more than a datagram on a loaded machine.
    DNS_TIMEOUT_MS: '1000',
    DNS_RETRIES: '0',
    CHECK_DEADLINE_MS: '3000',
    // With dead DNS the zone monitor's Durable Object, which logs at this level on the console
    // (not the sink), says at error on each alarm for the rest of the run that no resolver
    // answers: what the suite made on purpose, printed on a passing run.
    LOG_LEVEL: options.deadDns ? 'silent' : 'info',
    ...(typeof options.env === 'function' ? options.env(dns) : options.env),
  };
  const workerEnv = { ...(env as unknown as WorkerEnv), ...variables };
  const logs: string[] = [];
  let now = options.now ?? new Date();
  const edge = await createEdgeApp(workerEnv, {
    // Every service its own keys, as every Node test service has its own memory store.
    storePrefix: `${crypto.randomUUID()} `,
    clock: () => now,
    logSink: (line) => logs.push(line),
  });
  const rootUrl = (path: string) => `http://edge.test${path}`;
  const url = (path: string) => rootUrl(`${basePath}${path}`);

  async function fetchFromApp(target: string, init?: RequestInit): Promise<Response> {
    const request = new Request(target, init);
    if (!request.headers.has('cf-connecting-ip'))
      request.headers.set('cf-connecting-ip', '127.0.0.1');
    const ctx = createExecutionContext();
    const response = await edge.fetch(request, workerEnv, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  }

  /** As on Node (support/service.ts): every JSON answer is checked against its documentation. */
  async function documented(method: string, path: string, response: Response) {
    if (!/^application\/json/.test(response.headers.get('content-type') ?? '')) return response;
    const route = `${basePath}${path.split('?')[0]}`;
    assertAnswerDocumented(edge.app, method, route, response.status, await response.clone().json());
    return response;
  }

  return {
    url,
    rootUrl,
    ...(world ? { world } : {}),
    logs,
    setNow: (date) => {
      now = date;
    },
    fetch: fetchFromApp,
    // The Worker resolves over DoH alone (docs/edge.md).
    asksNameServers: false,
    deadlineMs: Number(variables.CHECK_DEADLINE_MS),
    dnsQueries: async () => (world ? world.queries() : []),
    async setZones(zones) {
      await world?.setZones(zones);
    },
    renderCard,
    async runWatchesUntilIdle() {
      for (;;) {
        const report = await edge.tickWatches();
        if (report.checks === 0 && report.deliveries === 0) return;
      }
    },
    post: async (path, body, headers = {}) =>
      documented(
        'POST',
        path,
        await fetchFromApp(url(path), {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      ),
    get: async (path, headers = {}) =>
      documented('GET', path, await fetchFromApp(url(path), { headers })),
    async close() {
      await world?.close();
    },
  };
}

/** The card's SVG as the Node server draws it. */
export async function nodeCardSvg(summary: ShareSummary): Promise<string> {
  return (await ask<{ svg: string }>('/card-svg', 'POST', summary)).svg;
}

/** The fake captcha provider, run by the fixture service in Node. */
export async function startCaptchaProvider(options: {
  goodTokens: string[];
}): Promise<CaptchaProviderFixture> {
  const { id, urls } = await ask<{ id: string; urls: Record<string, string> }>(
    '/captcha',
    'POST',
    options,
  );
  return {
    urlFor: (name) => urls[name]!,
    requests: () => ask(`/captcha/${id}/requests`),
    setMode: (mode) => ask(`/captcha/${id}/mode`, 'PUT', { mode }),
    close: () => ask(`/captcha/${id}`, 'DELETE'),
  };
}

/** A webhook receiver on 127.0.0.1, run by the fixture service in Node. */
export async function startWebhookReceiver(): Promise<{
  url: string;
  received(): Promise<ReceivedWebhook[]>;
  answer(with_: ReceiverAnswer): Promise<void>;
  close(): Promise<void>;
}> {
  const { id, url } = await ask<{ id: string; url: string }>('/receivers', 'POST');
  return {
    url,
    received: () => ask(`/receivers/${id}/received`),
    answer: (with_) => ask(`/receivers/${id}/answer`, 'PUT', with_),
    close: () => ask(`/receivers/${id}`, 'DELETE'),
  };
}

/** A capturing SMTP server on 127.0.0.1 (fixtures/smtp-inbox.ts), run by the fixture service in Node. */
export async function startSmtpInbox(
  options: { auth?: { user: string; pass: string }; refuseRecipients?: boolean } = {},
): Promise<{
  url: string;
  received(): Promise<
    {
      envelope: { from: string; to: string[] };
      headers: Record<string, string>;
      subject: string;
      text: string;
      html: string;
      raw: string;
    }[]
  >;
  close(): Promise<void>;
}> {
  const { id, url } = await ask<{ id: string; url: string }>('/smtp-inboxes', 'POST', options);
  return {
    url,
    received: () => ask(`/smtp-inboxes/${id}/received`),
    close: () => ask(`/smtp-inboxes/${id}`, 'DELETE'),
  };
}

/**
 * Where the fixture service serves MTA-STS policies over plain HTTP (fixture-control.ts
 * `policyAnswer`): `<base>/policy/<case>` stands for `https://mta-sts.<domain>`.
 */
export function policyServerUrl(kind: 'ok' | 'redirect' | 'missing' | 'large' | 'stalls'): string {
  return `${control}/policy/${kind}`;
}
