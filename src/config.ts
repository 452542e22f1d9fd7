import { z } from 'zod';
import { captchaProviderNames, parseTrustProxy } from './http/index.js';
import { type ConfigOf, commaList, integer, type Rule, section, variable } from './environment.js';
import { parseAddressRanges } from './lib/index.js';
import { maxIntervalS, networkShareOfMax, parseMailbox } from './watch/index.js';
import { parsePortRanges } from './webhooks/index.js';

/**
 * The variables every runtime reads (`process.env` on Node, the Worker's `env` vars on Workers),
 * as one table (src/environment.ts): a bad value stops the process, or answers every request on
 * Workers, with a message naming the variable (docs/configuration.md). What only the Node server
 * reads (ports, sockets, processes, files, threads) is src/node/config.ts's table; what only
 * Workers reads, src/workers/config.ts's.
 */

/** An absolute http(s) URL without credentials: where DoH queries are POSTed (RFC 8484 §4.1). */
function isDohEndpoint(entry: string): boolean {
  if (!URL.canParse(entry)) return false;
  const url = new URL(entry);
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.username === '' &&
    url.password === ''
  );
}

const trustProxy = z.string().transform((value, ctx) => {
  try {
    return parseTrustProxy(value);
  } catch (error) {
    ctx.addIssue({
      code: 'custom',
      message: (error as Error).message.replace(/^TRUST_PROXY: /, ''),
    });
    return z.NEVER;
  }
});

const publicUrl = z
  .url({ protocol: /^https?$/ })
  .refine((text) => {
    const url = new URL(text);
    return url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  }, 'an http(s) URL such as https://rep.example.org, without query, fragment or credentials')
  // Without a trailing slash: every absolute URL is it followed by BASE_PATH.
  .transform((text) => new URL(text).href.replace(/\/+$/, ''));

/** CIDRs (a bare address is a single-address network), each entry that is not one named. */
export const networks = commaList.transform((entries, ctx) => {
  const { ranges, invalid } = parseAddressRanges(entries);
  for (const entry of invalid) {
    ctx.addIssue({ code: 'custom', message: `"${entry}" is not a CIDR such as 10.0.0.0/8` });
  }
  return ranges;
});

/** Ports and port ranges (`80,443,1024-65535`), each entry from 1 to 65535. */
const portRanges = commaList.transform((entries, ctx) => {
  const ranges = parsePortRanges(entries);
  if (ranges && ranges.length > 0) return ranges;
  ctx.addIssue({
    code: 'custom',
    message: 'a comma list of ports and ranges from 1 to 65535, such as 80,443,1024-65535',
  });
  return z.NEVER;
});

/** RFC 6750 §2.1's b64token, long enough not to be guessed: METRICS_TOKEN's and OPERATOR_TOKEN's form. */
export const bearerToken = z
  .string()
  .regex(
    /^[A-Za-z0-9._~+/-]{16,}=*$/,
    'at least 16 characters of letters, digits and -._~+/ (a bearer token)',
  );

/** An smtp:// or smtps:// URL with a host (credentials in it, RFC 3986 §3.2.1, as nodemailer reads it). */
const smtpUrl = z.string().refine((text) => {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
}, 'an smtp:// or smtps:// URL such as smtps://user:password@smtp.example.org:465');

/** ALERT_FROM: an address, or a display name and an address in angle brackets. */
const mailbox = z
  .string()
  .refine(
    (text) => parseMailbox(text) !== undefined,
    'an address such as alerts@example.org, or Reputation <alerts@example.org>',
  );

const seconds = (min: number, max: number) => integer(min, max).transform((s) => s * 1000);
const days = (min: number, max: number) => integer(min, max).transform((d) => d * 86_400_000);

/**
 * Which proxy headers name the caller and the public origin: read by the Node server only. On
 * Workers the caller is `CF-Connecting-IP`, which Cloudflare sets on every request, and no
 * forwarded header is believed (docs/edge.md), so these two are not in the shared table.
 */
export const proxyVariables = {
  trustProxy: variable({
    name: 'TRUST_PROXY',
    parser: trustProxy,
    default: 'none',
    meaning:
      "Where the caller's address comes from: `none` (the socket peer), `cloudflare` (`CF-Connecting-IP`), a hop count for `X-Forwarded-For`, or a comma list of trusted proxy CIDRs.",
  }),
  forwardedHeaders: variable({
    name: 'FORWARDED_HEADERS',
    parser: z.enum(['x-forwarded', 'forwarded']),
    default: 'x-forwarded',
    meaning:
      'The one header family a `TRUST_PROXY` proxy is believed in: `x-forwarded` (`X-Forwarded-For`, `-Proto`, `-Host`) or `forwarded` (RFC 7239 `Forwarded`), never both; the proxy must clear the family it does not set ([`pages.md`](pages.md#public-urls)).',
  }),
};

/** The proxy settings as the app reads them; absent on Workers, where nothing is believed. */
export type ProxySettings = ConfigOf<typeof proxyVariables>;

export const sharedVariables = {
  basePath: variable({
    name: 'BASE_PATH',
    parser: z
      .string()
      .regex(
        /^(\/[A-Za-z0-9._~-]+)*$/,
        'a path such as /tools/ip-reputation, without a trailing slash',
      ),
    default: '/tools/ip-reputation',
    meaning: 'Prefix of every route, without a trailing slash.',
  }),
  publicUrl: variable({
    name: 'PUBLIC_URL',
    parser: publicUrl,
    meaning:
      "Public address (`https://rep.example.org`, a path in it being a proxy's prefix) of every absolute URL; without it, forwarded headers count only from `TRUST_PROXY` proxies ([`pages.md`](pages.md#public-urls)).",
  }),
  corsOrigins: variable({
    name: 'CORS_ORIGINS',
    parser: commaList.refine((origins) => origins.length > 0, 'a comma list of origins, or *'),
    default: '*',
    meaning: 'Comma list of the origins allowed to call the API from a browser.',
  }),
  logLevel: variable({
    name: 'LOG_LEVEL',
    parser: z.enum(['silent', 'error', 'info', 'debug']),
    default: 'info',
    meaning:
      'One JSON line per request at `info`, without bodies, headers or query strings (captcha tokens never reach the log).',
  }),
  dailyLimit: variable({
    name: 'DAILY_LIMIT',
    parser: integer(1, 10_000_000),
    default: '50',
    meaning: 'Fresh checks per tool, per caller, per UTC day.',
  }),
  refundsPerDay: variable({
    name: 'REFUNDS_PER_DAY',
    parser: integer(0, 10_000_000),
    default: '10',
    meaning:
      'Failed checks (`dns_unavailable` before any list was asked) a caller gets its unit back for per UTC day, all tools together; `0`: never ([`results.md`](results.md#refunds)).',
  }),
  resultTtlMs: variable({
    name: 'RESULT_TTL_S',
    parser: seconds(0, 86_400),
    default: '600',
    meaning:
      'Seconds within which the same request answers the stored result (`from_cache: true`, no quota); `0` turns it off.',
  }),
  tokenTtlMs: variable({
    name: 'TOKEN_TTL_DAYS',
    parser: days(1, 3650),
    default: '30',
    meaning: 'Days a result stays fetchable by its token.',
  }),
  captcha: section('provider', {
    provider: variable({
      name: 'CAPTCHA_PROVIDER',
      parser: z
        .enum(['none', ...captchaProviderNames])
        .transform((name) => (name === 'none' ? undefined : name)),
      default: 'none',
      meaning:
        'The captcha asked of callers past `CAPTCHA_FREE_CHECKS` a day ([`pages.md`](pages.md)).',
    }),
    siteKey: variable({
      name: 'CAPTCHA_SITE_KEY',
      parser: z.string(),
      default: '',
      meaning: "The widget's public key, sent as `siteKey`; required with a provider.",
    }),
    secret: variable({
      name: 'CAPTCHA_SECRET',
      parser: z.string(),
      default: '',
      meaning: 'The key the server verifies tokens with; required with a provider.',
    }),
    verifyUrl: variable({
      name: 'CAPTCHA_VERIFY_URL',
      parser: z.url({ protocol: /^https?$/ }),
      meaning: "Replaces the provider's verification endpoint (unset: the provider's own).",
    }),
    freeChecks: variable({
      name: 'CAPTCHA_FREE_CHECKS',
      parser: integer(0, 10_000_000),
      default: '0',
      meaning: 'Checks per caller per day before a captcha is required.',
    }),
    failOpenPerDay: variable({
      name: 'CAPTCHA_FAIL_OPEN_PER_DAY',
      parser: integer(0, 10_000),
      default: '3',
      meaning:
        'Checks per caller per day let through unverified while a fail-open provider (SmartCaptcha) fails; past it, 503 `captcha_unavailable` ([`storage.md`](storage.md#atomic-quotas-quota-before-captcha)).',
    }),
  }),
  poolMaxIps: variable({
    name: 'POOL_MAX_IPS',
    parser: integer(1, 256),
    default: '32',
    meaning: 'Addresses per pool check, and the most a pool discovery lists.',
  }),
  checkDeadlineMs: variable({
    name: 'CHECK_DEADLINE_MS',
    parser: integer(100, 60_000),
    default: '4000',
    meaning: 'No check waits longer: lists that have not answered by then are `timeout`.',
  }),
  dns: {
    timeoutMs: variable({
      name: 'DNS_TIMEOUT_MS',
      parser: integer(50, 30_000),
      default: '1500',
      meaning:
        'Timeout of each try of a DNS query: a UDP query and its TCP retry when the answer comes back truncated, or one DoH exchange.',
    }),
    retries: variable({
      name: 'DNS_RETRIES',
      parser: integer(0, 5),
      default: '1',
      meaning: 'Retries per DNS query.',
    }),
    dohUrls: variable({
      name: 'DOH_URL',
      parser: commaList.refine(
        (urls) => urls.every(isDohEndpoint),
        'a comma list of http:// or https:// URLs of RFC 8484 endpoints',
      ),
      default: '',
      meaning:
        'Comma list of DNS-over-HTTPS endpoints (RFC 8484), e.g. `https://cloudflare-dns.com/dns-query`, asked in order, the first until it fails; required with `DNS_TRANSPORT=doh` and on Workers ([`edge.md`](edge.md)).',
    }),
  },
  /**
   * The list keys, each under the variable the zone list names for it (`key.variable`), so this
   * group is the engine's ListKeys as it stands.
   */
  listKeys: {
    SPAMHAUS_DQS_KEY: variable({
      name: 'SPAMHAUS_DQS_KEY',
      parser: z.string().regex(/^[a-z0-9]+$/, 'a Spamhaus DQS key (lowercase letters and digits)'),
      meaning:
        'Asks Spamhaus zones through its Data Query Service (`<key>.zen.dq.spamhaus.net`), which answers public resolvers too, and turns on the lists only it serves (ZRD, AuthBL); the key never appears in any output.',
    }),
    ABUSIX_KEY: variable({
      name: 'ABUSIX_KEY',
      parser: z
        .string()
        .regex(
          /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/,
          'an Abusix Mail Intelligence key (one DNS label: letters, digits, inner hyphens)',
        ),
      meaning:
        'Turns on the Abusix Mail Intelligence lists, asked as `<key>.combined.mail.abusix.zone`; without it they show as `disabled`, never asked. The key never appears in any output.',
    }),
  },
  selfTestIntervalMs: variable({
    name: 'SELFTEST_INTERVAL_S',
    parser: seconds(10, 86_400),
    default: '1800',
    meaning:
      'Seconds between RFC 5782 self-tests of every list (every 30 s at most while a list is unproven; [`verdicts.md`](verdicts.md)).',
  }),
  poolNameServers: {
    port: variable({
      name: 'POOL_NS_PORT',
      parser: integer(1, 65535),
      default: '53',
      meaning: "Port of a pool zone's name servers; for tests and `npm run demo` only.",
    }),
    allowNonPublic: variable({
      name: 'POOL_NS_ALLOW_NON_PUBLIC',
      parser: z.enum(['true', 'false']).transform((flag) => flag === 'true'),
      default: 'false',
      meaning:
        'Lets pool discovery ask name servers at non-public addresses; for tests and `npm run demo` only ([`checks.md`](checks.md#pool-limits)).',
    }),
  },
  mail: {
    probeAllowNetworks: variable({
      name: 'PROBE_ALLOW_NETWORKS',
      parser: networks,
      default: '',
      meaning:
        "Comma list of CIDRs (`127.0.0.0/8`) the mail check's SMTP probes and MTA-STS fetches may connect to although they are not public; for tests and `npm run demo` ([`mail.md`](mail.md#bounds-and-safety)).",
    }),
    probeHttpsPort: variable({
      name: 'PROBE_HTTPS_PORT',
      parser: integer(1, 65535),
      default: '443',
      meaning:
        'The port the MTA-STS policy is fetched from (RFC 8461 §3.3 says 443; another for test worlds without root).',
    }),
  },
  watch: {
    intervalS: variable({
      name: 'WATCH_INTERVAL_S',
      parser: integer(1, maxIntervalS),
      default: '3600',
      meaning:
        "Seconds between a watch's re-checks when it names no interval; at least `WATCH_MIN_INTERVAL_S` ([`watches.md`](watches.md)).",
    }),
    minIntervalS: variable({
      name: 'WATCH_MIN_INTERVAL_S',
      parser: integer(1, maxIntervalS),
      default: '900',
      meaning:
        'The shortest interval a watch may name, in seconds (down to 1 for tests and operators who need it).',
    }),
    perCaller: variable({
      name: 'WATCH_PER_CALLER',
      parser: integer(1, 1_000_000),
      default: '5',
      meaning:
        'Live watches per caller (an IPv4 address, an IPv6 /64); past it a creation is refused (`watch_limit`) ([`watches.md`](watches.md#limits)).',
    }),
    perNetwork: variable({
      name: 'WATCH_PER_NETWORK',
      parser: integer(1, 10_000_000),
      default: '20',
      meaning: `Live watches per network (an IPv4 /24, an IPv6 /48), all its callers together, and never more than ${Math.round(networkShareOfMax * 100)}% of \`WATCH_MAX\`; past it a creation is refused (\`watch_limit\`) ([\`watches.md\`](watches.md#limits)).`,
    }),
    max: variable({
      name: 'WATCH_MAX',
      parser: integer(1, 10_000_000),
      default: '10000',
      meaning:
        'Live watches in the whole service; past it a creation is refused (`watch_capacity`).',
    }),
    ttlMs: variable({
      name: 'WATCH_TTL_DAYS',
      parser: days(1, 3650),
      default: '90',
      meaning: 'Days after which a watch not renewed by a PATCH ends.',
    }),
    pendingDeliveries: variable({
      name: 'WATCH_PENDING_DELIVERIES',
      parser: integer(1, 1000),
      default: '20',
      meaning:
        'Deliveries a watch may have waiting at once; past it the oldest is dropped unsent and counted (`reputation_watch_deliveries_dropped_total`, [`watches.md`](watches.md#fair-delivery)).',
    }),
    webhookAllowNetworks: variable({
      name: 'WEBHOOK_ALLOW_NETWORKS',
      parser: networks,
      default: '',
      meaning:
        'Comma list of CIDRs (`10.0.0.0/8,fd00::/8`) a webhook may reach although they are not public, for watches created with `OPERATOR_TOKEN` only; nothing else non-public is ever reached ([`watches.md`](watches.md#safety)).',
    }),
    webhookAllowPorts: variable({
      name: 'WEBHOOK_ALLOW_PORTS',
      parser: portRanges,
      default: '80,443,1024-65535',
      meaning:
        'Comma list of the ports and port ranges a webhook URL may name; any other is refused (`invalid_webhook`) ([`watches.md`](watches.md#safety)).',
    }),
    operatorToken: variable({
      name: 'OPERATOR_TOKEN',
      parser: bearerToken,
      meaning:
        'The operator’s credential: a watch created with `Authorization: Bearer <token>` may deliver into `WEBHOOK_ALLOW_NETWORKS`; unset, no watch may ([`watches.md`](watches.md#safety)).',
    }),
    smtpUrl: variable({
      name: 'SMTP_URL',
      parser: smtpUrl,
      meaning:
        'Where watches’ e-mails are sent: `smtps://user:password@host:465` (TLS from the start) or `smtp://…:587` (STARTTLS when offered), credentials percent-encoded in the URL; unset, a watch with `email` is refused (`email_unavailable`); needs `ALERT_FROM`; on Workers over `cloudflare:sockets`, never to port 25 ([`watches.md`](watches.md#e-mail), [`edge.md`](edge.md#e-mail-on-workers)).',
    }),
    alertFrom: variable({
      name: 'ALERT_FROM',
      parser: mailbox,
      meaning:
        'The From of watches’ e-mails: `alerts@example.org` or `Reputation <alerts@example.org>`; required with `SMTP_URL`.',
    }),
    webhookTimeoutMs: variable({
      name: 'WEBHOOK_TIMEOUT_MS',
      parser: integer(100, 60_000),
      default: '10000',
      meaning:
        "A webhook delivery's whole exchange must end within this, else it is a failed attempt.",
    }),
  },
};

/** What the app and its services read, on every runtime. */
export type Config = ConfigOf<typeof sharedVariables>;

/** The rules between shared variables; each runtime's schema applies them. */
export const sharedRules: Rule<Config>[] = [
  (config, ctx) => {
    if (config.watch.intervalS < config.watch.minIntervalS) {
      ctx.addIssue({
        code: 'custom',
        path: ['WATCH_INTERVAL_S'],
        message: `at least WATCH_MIN_INTERVAL_S (${config.watch.minIntervalS})`,
      });
    }
  },
  (config, ctx) => {
    if (config.watch.smtpUrl !== undefined && config.watch.alertFrom === undefined) {
      ctx.addIssue({ code: 'custom', path: ['ALERT_FROM'], message: 'required with SMTP_URL' });
    }
  },
  (config, ctx) => {
    if (config.captcha === undefined) return;
    const { provider, siteKey, secret } = config.captcha;
    for (const [name, value] of [
      ['CAPTCHA_SITE_KEY', siteKey],
      ['CAPTCHA_SECRET', secret],
    ] as const) {
      if (value === '')
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `required with CAPTCHA_PROVIDER=${provider}`,
        });
    }
  },
];
