import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import satori from 'satori';
import { readCardFonts } from '../../src/node/cards/fonts.js';
import { queryZone } from '../../src/reputation/lists/dnsbl.js';
import { cardSvg } from '../../src/share/card.js';
import { createFontLoader } from '../../src/share/fonts.js';
import type { ShareSummary } from '../../src/share/summary.js';
import { type DnsblZone, loadZoneList } from '../../src/reputation/lists/zones.js';
import {
  type FakeCaptchaProvider,
  startFakeCaptchaProvider,
} from '../../fixtures/captcha-provider.js';
import {
  type FixtureDnsServer,
  type FixtureZone,
  startFixtureDnsServer,
} from '../../fixtures/dns-server.js';
import { type Listings, dnsblWorld } from '../../fixtures/dnsbl-world.js';
import { type FixtureDohServer, startFixtureDohServer } from '../../fixtures/doh-server.js';
import {
  type ReceiverAnswer,
  type WebhookReceiver,
  startWebhookReceiver,
} from '../../fixtures/webhook-receiver.js';
import { type SmtpInbox, startSmtpInbox } from '../../fixtures/smtp-inbox.js';

/**
 * The fixtures of the workerd suites, in Node: tests inside workerd cannot open sockets to serve
 * DNS, so they ask this small HTTP service on 127.0.0.1 (started by global-setup.ts) for what the
 * Node suites start in-process: a fixture DNS world behind a DoH endpoint, the fake captcha
 * provider, and a webhook receiver; and MTA-STS policies over plain HTTP (`/policy/<case>/...`,
 * `policyAnswer`) for the policy fetcher's rules. It also draws a card's SVG as the Node server does, for a suite to compare the
 * Worker's with. workerd/support/service.ts is its client.
 */

/** What a suite asks for: the default zone list's world with its listings, and its own zones. */
export interface WorldSpec {
  listings?: Listings;
  zones?: FixtureZone[];
  latencyMs?: number;
  /**
   * `public-resolver`: Spamhaus answers 127.255.255.254 to everything, as it does to queries that
   * come through a public resolver. `{ dqsKey }`: that, and the lists' Data Query Service names
   * under the key answer as the lists do.
   */
  spamhaus?: 'public-resolver' | { dqsKey: string };
  /** These zones and nothing else (a world a suite built itself). */
  exactly?: FixtureZone[];
}

export interface WorldHandle {
  id: string;
  dohUrl: string;
  port: number;
  address: string;
}

interface World {
  dns: FixtureDnsServer;
  doh: FixtureDohServer;
}

export interface FixtureControl {
  url: string;
  close(): Promise<void>;
}

/** Spamhaus' lists: the zones the DQS key moves (src/reputation/lists/dnsbl.ts). */
const isSpamhaus = (zone: DnsblZone) => queryZone(zone, { SPAMHAUS_DQS_KEY: 'key' }) !== zone.zone;

async function worldZones(spec: WorldSpec): Promise<FixtureZone[]> {
  if (spec.exactly) return spec.exactly;
  const zoneList = await loadZoneList();
  let world = dnsblWorld(zoneList, spec.listings ?? {});
  if (spec.spamhaus !== undefined) {
    const spamhaus = new Set(zoneList.filter(isSpamhaus).map((zone) => zone.zone));
    world = world.map((zone) =>
      spamhaus.has(zone.origin)
        ? { origin: zone.origin, wildcard: { A: ['127.255.255.254'] } }
        : zone,
    );
    if (typeof spec.spamhaus === 'object') {
      const key = spec.spamhaus.dqsKey;
      const dqs = zoneList
        .filter(isSpamhaus)
        .map((zone) => ({ ...zone, zone: queryZone(zone, { SPAMHAUS_DQS_KEY: key }) }));
      world.push(...dnsblWorld(dqs, {}));
    }
  }
  return [...world, ...(spec.zones ?? [])];
}

/** A policy of RFC 8461 §3.2, as a policy host serves it. */
const servedPolicy =
  'version: STSv1\r\nmode: enforce\r\nmx: mx.edge-mail.net\r\nmax_age: 86400\r\n';

/**
 * How `/policy/<case>/.well-known/mta-sts.txt` answers: `ok` the policy; `redirect` a 301 to
 * `ok`; `missing` 404; `large` 70 KB of policy-looking text (over the fetcher's 64 KB);
 * `stalls` the headers and the first line, then nothing more until the client hangs up.
 */
function policyAnswer(kind: string, response: ServerResponse): void {
  switch (kind) {
    case 'ok':
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(servedPolicy);
      return;
    case 'redirect':
      response.writeHead(301, { location: '/policy/ok/.well-known/mta-sts.txt' });
      response.end();
      return;
    case 'large':
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(servedPolicy + '#'.repeat(70 * 1024));
      return;
    case 'stalls':
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('version: STSv1\r\n');
      return;
    default:
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
  }
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request as AsyncIterable<Buffer>) text += chunk.toString('utf8');
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

function answer(response: ServerResponse, status: number, body: unknown = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(text);
}

export async function startFixtureControl(): Promise<FixtureControl> {
  const worlds = new Map<string, World>();
  const providers = new Map<string, FakeCaptchaProvider>();
  const receivers = new Map<string, WebhookReceiver>();
  const inboxes = new Map<string, SmtpInbox>();
  const loadFonts = createFontLoader(() => readCardFonts());
  /** Worlds a suite has closed, answering HTTP 503 until the run ends (`retire`). */
  const retired: World[] = [];
  let nextId = 1;

  /**
   * A world a suite is done with stays up for the rest of the run, its DoH endpoint answering
   * every query at once with HTTP 503 over the connections workerd holds. The zone monitors of
   * the services built on it go on asking it on their alarms (a monitor is a Durable Object that
   * outlives its suite); closed, the world cut those connections under them, and workerd printed
   * a native "Broken pipe" or "Connection reset by peer" stack for each query it had begun
   * writing, then a refused connection for every later one.
   */
  function retire(world: World): void {
    world.doh.setFault('http-error');
    world.dns.setZones([]);
    world.dns.setLatency(0);
    retired.push(world);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const [, kind, id, what] = (request.url ?? '').split('/');
    const method = request.method ?? 'GET';
    if (kind === 'policy' && method === 'GET') return policyAnswer(id ?? '', response);
    if (kind === 'worlds' && id === undefined && method === 'POST') {
      const spec = (await readJson(request)) as WorldSpec;
      const dns = await startFixtureDnsServer({
        zones: await worldZones(spec),
        latencyMs: spec.latencyMs ?? 0,
      });
      const doh = await startFixtureDohServer({ dns });
      const handle = String(nextId++);
      worlds.set(handle, { dns, doh });
      return answer(response, 200, {
        id: handle,
        dohUrl: doh.url,
        port: dns.port,
        address: dns.address,
      } satisfies WorldHandle);
    }
    const world = kind === 'worlds' ? worlds.get(id ?? '') : undefined;
    if (world && what === 'queries' && method === 'GET')
      return answer(response, 200, world.dns.queries);
    if (world && what === 'zones' && method === 'PUT') {
      world.dns.setZones(await worldZones((await readJson(request)) as WorldSpec));
      return answer(response, 200);
    }
    if (world && what === undefined && method === 'DELETE') {
      worlds.delete(id ?? '');
      retire(world);
      return answer(response, 200);
    }
    if (kind === 'card-svg' && method === 'POST') {
      const summary = (await readJson(request)) as unknown as ShareSummary;
      return answer(response, 200, { svg: await cardSvg(summary, await loadFonts(), satori) });
    }
    if (kind === 'captcha' && id === undefined && method === 'POST') {
      const { goodTokens } = (await readJson(request)) as { goodTokens: string[] };
      const provider = await startFakeCaptchaProvider({ goodTokens });
      const handle = String(nextId++);
      providers.set(handle, provider);
      return answer(response, 200, {
        id: handle,
        urls: {
          smartcaptcha: provider.urlFor('smartcaptcha'),
          turnstile: provider.urlFor('turnstile'),
          hcaptcha: provider.urlFor('hcaptcha'),
        },
      });
    }
    const provider = kind === 'captcha' ? providers.get(id ?? '') : undefined;
    if (provider && what === 'requests' && method === 'GET')
      return answer(response, 200, provider.requests);
    if (provider && what === 'mode' && method === 'PUT') {
      const { mode } = (await readJson(request)) as {
        mode: Parameters<FakeCaptchaProvider['setMode']>[0];
      };
      provider.setMode(mode);
      return answer(response, 200);
    }
    if (provider && what === undefined && method === 'DELETE') {
      providers.delete(id ?? '');
      await provider.close();
      return answer(response, 200);
    }
    if (kind === 'receivers' && id === undefined && method === 'POST') {
      const receiver = await startWebhookReceiver();
      const handle = String(nextId++);
      receivers.set(handle, receiver);
      return answer(response, 200, { id: handle, url: receiver.url() });
    }
    const receiver = kind === 'receivers' ? receivers.get(id ?? '') : undefined;
    if (receiver && what === 'received' && method === 'GET')
      return answer(response, 200, receiver.received);
    if (receiver && what === 'answer' && method === 'PUT') {
      receiver.answer((await readJson(request)) as unknown as ReceiverAnswer);
      return answer(response, 200);
    }
    if (receiver && what === undefined && method === 'DELETE') {
      receivers.delete(id ?? '');
      await receiver.close();
      return answer(response, 200);
    }
    if (kind === 'smtp-inboxes' && id === undefined && method === 'POST') {
      const { auth, refuseRecipients } = (await readJson(request)) as {
        auth?: { user: string; pass: string };
        refuseRecipients?: boolean;
      };
      const inbox = await startSmtpInbox(auth ? { auth } : {});
      if (refuseRecipients) inbox.refuseRecipients(true);
      const handle = String(nextId++);
      inboxes.set(handle, inbox);
      return answer(response, 200, { id: handle, url: inbox.url });
    }
    const inbox = kind === 'smtp-inboxes' ? inboxes.get(id ?? '') : undefined;
    if (inbox && what === 'received' && method === 'GET') {
      return answer(
        response,
        200,
        inbox.received.map((mail) => ({ ...mail, headers: Object.fromEntries(mail.headers) })),
      );
    }
    if (inbox && what === undefined && method === 'DELETE') {
      inboxes.delete(id ?? '');
      await inbox.close();
      return answer(response, 200);
    }
    answer(response, 404, { error: `no fixture route ${method} ${request.url}` });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) =>
      answer(response, 500, { error: String(error) }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const world of [...worlds.values(), ...retired]) {
        await world.doh.close();
        await world.dns.close();
      }
      for (const each of providers.values()) await each.close();
      for (const each of receivers.values()) await each.close();
      for (const each of inboxes.values()) await each.close();
    },
  };
}
