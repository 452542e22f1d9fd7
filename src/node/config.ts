import { z } from 'zod';
import {
  bearerToken,
  type ConfigOf,
  commaList,
  environmentSchema,
  integer,
  mergeTables,
  networks,
  parseEnvironment,
  proxyVariables,
  reportsLocationOf,
  reportsUrl,
  sharedRules,
  sharedVariables,
  variable,
} from '../config/index.js';
import { defaultStoreUrl, parseStoreUrl, type StoreLocation } from '../store/index.js';
import { parseServerAddress } from './dns/index.js';

/**
 * The variables only the Node server reads, its socket, resolvers, files, processes and threads,
 * as a table (src/config/environment.ts) added to the shared one (src/config/variables.ts).
 */

/** An imap:// or imaps:// URL with a host and, as its path, the folder polled. */
const imapUrl = z.string().refine((text) => {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'imap:' || url.protocol === 'imaps:') && url.hostname !== '';
}, 'an imap:// or imaps:// URL such as imaps://user:password@imap.example.org/INBOX');

const storeUrl = z.string().transform((url, ctx) => {
  try {
    return parseStoreUrl(url);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

export const nodeOnlyVariables = {
  ...proxyVariables,
  port: variable({
    name: 'PORT',
    parser: integer(0, 65535),
    default: '8787',
    meaning: 'HTTP port (`0`: any free one).',
  }),
  host: variable({
    name: 'HOST',
    parser: z.string(),
    default: '0.0.0.0',
    meaning: 'Address to listen on.',
  }),
  store: variable({
    name: 'STORE_URL',
    parser: storeUrl,
    default: defaultStoreUrl,
    meaning:
      'Where tokens, the result cache, quotas and pool discoveries live: `sqlite:PATH` (relative to the working directory), `redis://[user:pass@]host:port/db` or `rediss://…`, or `memory:` (lost at exit; [`storage.md`](storage.md)).',
  }),
  storeNamespace: variable({
    name: 'STORE_NAMESPACE',
    parser: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - and _, 64 at most, such as staging'),
    default: 'default',
    meaning:
      'Put before every key and row the service writes, so deployments sharing one SQLite file or one Redis share nothing ([`storage.md`](storage.md)).',
  }),
  workers: variable({
    name: 'WORKERS',
    parser: integer(1, 256),
    default: '1',
    meaning:
      'Processes serving the one port (`node:cluster`); above 1 needs a store they share (not `memory:`).',
  }),
  dns: {
    servers: variable({
      name: 'DNS_SERVERS',
      parser: commaList.refine(
        (servers) => servers.every((server) => parseServerAddress(server) !== undefined),
        'a comma list of ip, ip:port or [ipv6]:port',
      ),
      default: '',
      meaning:
        "Comma list of the resolvers asked over UDP, as `ip`, `ip:port` or `[ipv6]:port` (port 53 unless given), the first until it fails (unset: the system's, read from `/etc/resolv.conf` at start).",
    }),
    transport: variable({
      name: 'DNS_TRANSPORT',
      parser: z.enum(['udp', 'doh']),
      default: 'udp',
      meaning:
        'How DNS is asked: `udp` to `DNS_SERVERS` (TCP for truncated answers), or `doh`, DNS over HTTPS (RFC 8484) to `DOH_URL`, over one HTTP/2 session per endpoint.',
    }),
  },
  smtpProbe: {
    timeoutMs: variable({
      name: 'SMTP_TIMEOUT_MS',
      parser: integer(100, 120_000),
      default: '10000',
      meaning:
        "Bounds each stage of the mail check's SMTP probe (connect, greeting, EHLO, STARTTLS, TLS handshake); the whole check answers within about this plus 3 seconds ([`mail.md`](mail.md#bounds-and-safety)).",
    }),
    port: variable({
      name: 'PROBE_SMTP_PORT',
      parser: integer(1, 65535),
      default: '25',
      meaning: 'The port MX hosts are probed on (25; another for test worlds without root).',
    }),
  },
  zonesFile: variable({
    name: 'DNSBL_ZONES_FILE',
    parser: z.string(),
    meaning:
      'A zone list of the same format replacing the bundled `assets/dnsbl-zones.json` ([`zone-list.md`](zone-list.md)).',
  }),
  connections: {
    headersTimeoutMs: variable({
      name: 'HEADERS_TIMEOUT_MS',
      parser: integer(100, 600_000),
      default: '10000',
      meaning:
        "A request's headers must arrive within this, at most `REQUEST_TIMEOUT_MS`; else 408 and the connection is closed.",
    }),
    requestTimeoutMs: variable({
      name: 'REQUEST_TIMEOUT_MS',
      parser: integer(100, 3_600_000),
      default: '30000',
      meaning:
        'The whole request (headers and body) must arrive within this; else 408 and the connection is closed.',
    }),
    keepAliveTimeoutMs: variable({
      name: 'KEEP_ALIVE_TIMEOUT_MS',
      parser: integer(100, 600_000),
      default: '5000',
      meaning: 'An idle kept-alive connection is closed after this.',
    }),
    max: variable({
      name: 'MAX_CONNECTIONS',
      parser: integer(1, 1_000_000),
      default: '512',
      meaning:
        'Open connections per process, kept under its file-descriptor limit; past it a new connection reads a 503 `busy` (`Retry-After: 1`) and is closed.',
    }),
    maxPerClient: variable({
      name: 'MAX_CONNECTIONS_PER_CLIENT',
      parser: integer(1, 1_000_000),
      default: '32',
      meaning:
        "Open connections per process of one client (an IPv4 address, an IPv6 /64), at most `MAX_CONNECTIONS`; past it the client's new connection is closed at once. Proxies `TRUST_PROXY` believes are not capped ([`http-hardening.md`](http-hardening.md#connections-per-client)).",
    }),
  },
  metrics: {
    allow: variable({
      name: 'METRICS_ALLOW',
      parser: networks,
      default: '',
      meaning:
        'Comma list of CIDRs that may read `GET /metrics` besides a loopback socket without forwarding headers, judged on the caller `TRUST_PROXY` derives; anyone else gets a 404 ([`operations.md`](operations.md#who-may-read-metrics)).',
    }),
    token: variable({
      name: 'METRICS_TOKEN',
      parser: bearerToken,
      meaning:
        'When set, every caller of `GET /metrics` must also send `Authorization: Bearer <token>`.',
    }),
  },
  reports: {
    url: variable({
      name: 'REPORTS_URL',
      parser: reportsUrl,
      meaning:
        'Where reports inboxes and their reports live: `sqlite:PATH`, `postgres://[user:pass@]host[:port]/database` for several processes or machines, or `memory:`; unset, `reports.db` beside `STORE_URL`’s SQLite file (`data/reports.db` beside Redis; the memory with `memory:`) ([`reports.md`](reports.md#storage)).',
    }),
    smtpPort: variable({
      name: 'REPORTS_SMTP_PORT',
      parser: integer(0, 65535),
      meaning:
        'Where the service takes reports by SMTP (smtp-server), for its inboxes’ addresses only; unset, no listener; needs `REPORTS_ADDRESS` ([`reports.md`](reports.md#behind-an-mx)).',
    }),
    smtpHost: variable({
      name: 'REPORTS_SMTP_HOST',
      parser: z.string().min(1),
      default: '0.0.0.0',
      meaning: 'The address the SMTP listener binds.',
    }),
    tlsCert: variable({
      name: 'REPORTS_TLS_CERT',
      parser: z.string().min(1),
      meaning:
        'A PEM certificate chain file: the SMTP listener offers STARTTLS with it; needs `REPORTS_TLS_KEY`.',
    }),
    tlsKey: variable({
      name: 'REPORTS_TLS_KEY',
      parser: z.string().min(1),
      meaning: 'The PEM private key file of `REPORTS_TLS_CERT`.',
    }),
    imapUrl: variable({
      name: 'REPORTS_IMAP_URL',
      parser: imapUrl,
      meaning:
        'A mailbox the service polls for reports (imapflow): `imaps://user:password@host/INBOX`, credentials percent-encoded; each message is routed by its recipient’s subaddress; needs `REPORTS_ADDRESS` ([`reports.md`](reports.md#behind-an-mx)).',
    }),
    imapIntervalMs: variable({
      name: 'REPORTS_IMAP_INTERVAL_S',
      parser: integer(10, 86_400).transform((s) => s * 1000),
      default: '300',
      meaning: 'Seconds between two polls of `REPORTS_IMAP_URL`.',
    }),
    imapDone: variable({
      name: 'REPORTS_IMAP_DONE',
      parser: z.string().min(1),
      default: 'Processed',
      meaning:
        'The folder a polled message moves to once taken in; one that could not be read moves to `Invalid`.',
    }),
  },
  cardRender: {
    threads: variable({
      name: 'CARD_RENDER_THREADS',
      parser: integer(0, 64),
      default: '0',
      meaning: 'Worker threads drawing cards; `0` means one per core but one.',
    }),
    queue: variable({
      name: 'CARD_RENDER_QUEUE',
      parser: integer(0, 100_000),
      default: '64',
      meaning:
        'Cards that may wait for a free thread; past it a card answers 503 `busy` with `Retry-After`.',
    }),
  },
};

const nodeVariables = mergeTables(sharedVariables, nodeOnlyVariables);

export type NodeConfig = ConfigOf<typeof nodeVariables>;

const nodeSchema = environmentSchema(nodeVariables, [
  ...sharedRules,
  (config, ctx) => {
    if (config.dns.transport === 'doh' && config.dns.dohUrls.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['DOH_URL'],
        message: 'required with DNS_TRANSPORT=doh',
      });
  },
  (config, ctx) => {
    // Node refuses a headers timeout longer than the whole request's (the headers are part of it).
    const { headersTimeoutMs, requestTimeoutMs } = config.connections;
    if (headersTimeoutMs > requestTimeoutMs)
      ctx.addIssue({
        code: 'custom',
        path: ['HEADERS_TIMEOUT_MS'],
        message: `at most REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
      });
  },
  (config, ctx) => {
    // A share larger than the whole would never be reached: say so rather than cap nothing.
    const { max, maxPerClient } = config.connections;
    if (maxPerClient > max)
      ctx.addIssue({
        code: 'custom',
        path: ['MAX_CONNECTIONS_PER_CLIENT'],
        message: `at most MAX_CONNECTIONS (${max})`,
      });
  },
  (config, ctx) => {
    // The doors route mail by the subaddress of REPORTS_ADDRESS: without it no mail has an inbox.
    const { reports } = config;
    for (const [name, set] of [
      ['REPORTS_SMTP_PORT', reports.smtpPort !== undefined],
      ['REPORTS_IMAP_URL', reports.imapUrl !== undefined],
    ] as const) {
      if (set && config.reports.mailbox === undefined)
        ctx.addIssue({ code: 'custom', path: [name], message: 'needs REPORTS_ADDRESS' });
    }
    if ((reports.tlsCert === undefined) !== (reports.tlsKey === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [reports.tlsCert === undefined ? 'REPORTS_TLS_CERT' : 'REPORTS_TLS_KEY'],
        message: 'REPORTS_TLS_CERT and REPORTS_TLS_KEY go together',
      });
  },
  (config, ctx) => {
    if (config.workers > 1 && config.reports.url?.kind === 'memory')
      ctx.addIssue({
        code: 'custom',
        path: ['REPORTS_URL'],
        message: `WORKERS=${config.workers} needs a report store the workers share: memory: keeps one per process; use sqlite:PATH or postgres://`,
      });
  },
  (config, ctx) => {
    // Each worker would have its own memory: tokens made by one would be 404 on the others, and
    // every worker would count its own quota.
    if (config.workers > 1 && config.store.kind === 'memory')
      ctx.addIssue({
        code: 'custom',
        path: ['WORKERS'],
        message: `WORKERS=${config.workers} needs a store the workers share: STORE_URL=memory: keeps one per process; use sqlite:PATH or redis://`,
      });
  },
]);

/** Where the reports live: REPORTS_URL, else beside STORE_URL's data. */
export function reportsLocation(config: NodeConfig) {
  return reportsLocationOf(config.reports.url, storeUrlOf(config.store));
}

function storeUrlOf(store: StoreLocation): string {
  return store.kind === 'memory'
    ? 'memory:'
    : store.kind === 'sqlite'
      ? `sqlite:${store.path}`
      : store.url;
}

/** Reads the Node configuration, or throws one Error listing every bad variable by name. */
export function readConfig(env: Record<string, string | undefined>): NodeConfig {
  return parseEnvironment(nodeSchema, env);
}
