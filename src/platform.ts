import type { Resolver } from './dns/index.js';
import type { Lang } from './i18n/index.js';
import type { Metrics } from './operations/index.js';
import type { PageAssetSources } from './pages/index.js';
import type { DnsblZone, MailProbes, MonitorRemote, ResolverSetting } from './reputation/index.js';
import type { ShareSummary } from './share/index.js';
import type { ReportStore } from './reports/index.js';
import type { Store } from './store/index.js';
import type { EmailSender } from './watch/index.js';
import type { WebhookSender } from './webhooks/index.js';

/**
 * Everything the core needs from the runtime it runs on, in one object: the Node server builds it
 * in src/node/platform.ts, the Worker in src/workers/platform.ts, and src/services.ts builds the
 * app's services from it. Nothing below the entry points and these adapters touches a `node:`
 * module, `process.env`, the file system or a Workers binding (docs/DESIGN.md, docs/edge.md).
 */
export interface Platform {
  dns: {
    /** The DNS wire (UDP on Node, or DoH): the services add the observer, cap and cache. */
    transport: Resolver;
    /** Queries on the wire at once. */
    maxInFlight: number;
    /**
     * Queries in flight under each blocklist at once, where slots are few (Workers: six), so a
     * list that stops answering cannot hold them all; unset: no such cap.
     */
    maxInFlightPerList?: number;
    /** The resolver in public reasons: the setting, never addresses ("the one DNS_SERVERS names"). */
    description: string;
    /** The variable the reasons tell the operator to set: DNS_SERVERS, or DOH_URL over DoH. */
    setting: ResolverSetting;
    /**
     * The command that tries the service without outside DNS (`npm run demo` on Node), named in
     * the log and on the check page when no list can be proven; unset where there is none.
     */
    offlineDemo?: string;
    /** The resolvers' addresses or URLs, for the operator's log only; empty: the system's. */
    endpoints: readonly string[];
    /**
     * Whether a query may name servers of its own (`QueryOptions.servers`): pool discovery then
     * asks a pool zone's own name servers too. Not over DoH (docs/edge.md).
     */
    asksNameServers: boolean;
  };
  store: Store;
  /**
   * Where the reports tool keeps its inboxes and reports (docs/reports.md, "Storage"): on Node the
   * store REPORTS_URL names; absent on Workers until its Durable Object store, and then the
   * reports routes answer 503 `store_unavailable`.
   */
  reports?: ReportStore;
  /** Draws a share card in `lang`: PNG bytes of 1200x630 (src/share/card.ts), or CardRendererBusy. */
  renderCard: (summary: ShareSummary, lang: Lang) => Promise<Uint8Array>;
  /** How many bytes of drawn cards one process (or isolate) keeps. */
  cardCacheBytes: number;
  /** Cryptographically random bytes: tokens. */
  randomBytes: (length: number) => Uint8Array;
  /** SHA-256: ETags. */
  digest: (bytes: Uint8Array) => Promise<Uint8Array>;
  /**
   * Where the zone monitor lives and what schedules its self-test: `local`, in this process on a
   * timer (Node); `remote`, one monitor for every instance, elsewhere, with its own schedule
   * (Workers: a Durable Object on its alarm), read through a replica.
   */
  monitor: { kind: 'local' } | { kind: 'remote'; remote: MonitorRemote };
  /**
   * Where the core reports what the operator measures (docs/operations.md): prom-client on Node,
   * nothing on Workers, which serve no /metrics.
   */
  metrics: Metrics;
  /** Where log lines go (stdout on Node, the Workers console). */
  logSink: (line: string) => void;
  clock: () => Date;
  /** The DNSBL zone list: the bundled one, or on Node DNSBL_ZONES_FILE's. */
  zones: readonly DnsblZone[];
  /** The pages' script and stylesheet (assets/pages/): read at start on Node, bundled on Workers. */
  pageAssets: PageAssetSources;
  /**
   * POSTs a watch's event to its webhook: on Node to the address the engine checked, whatever the
   * name resolves to by then; on Workers through `fetch` (docs/watches.md, "Safety").
   */
  webhooks: WebhookSender;
  /**
   * The mail check's probes (docs/mail.md): SMTP and the MTA-STS fetch over sockets on Node; on
   * Workers no SMTP (TCP port 25 is not allowed there) and the policy over `fetch`.
   */
  probes: MailProbes;
  /**
   * Sends watches' e-mails to SMTP_URL (docs/watches.md, "E-mail"): nodemailer on Node,
   * worker-mailer over `cloudflare:sockets` on Workers (docs/edge.md); absent without SMTP_URL
   * (or with port 25 on Workers), and then `email` is refused.
   */
  mailer?: EmailSender;
}

/** Web Crypto, the same API on Node and on Workers: the default random bytes and hashing. */
export const webCrypto = {
  randomBytes: (length: number) => crypto.getRandomValues(new Uint8Array(length)),
  digest: async (bytes: Uint8Array) =>
    new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)),
} satisfies Pick<Platform, 'randomBytes' | 'digest'>;
